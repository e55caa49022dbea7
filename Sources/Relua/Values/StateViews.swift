import CLua
import CLuaShim
import Lua

/// Lua's live access to state, for one Lua state (make one per `LuaState`, keep it as long).
///
/// `withViews(of:_:)` runs one reducer call: the state is moved in from the caller's `inout`
/// (O(1), no copy), Lua code reads and writes it in place through views, every write is logged
/// with what it replaced, and at the end the state is moved back — or, if the body threw, rolled
/// back exactly first. Views from earlier calls raise "state can only change inside a reducer".
///
/// In Lua a view supports `v.key`, `v[i]`, assignment, `#v`, `pairs`, `ipairs`, `table.insert`,
/// `table.remove`, `table.sort`; `copy(v)` gives a plain table.
public final class StateViews {
  public static let staleMessage = "state can only change inside a reducer"
  static let goneError = LuaError.runtime(message: "state views are no longer available", traceback: nil)

  unowned let lua: LuaState
  /// How paths start in messages (`state.results[3]`).
  public let rootName: String
  let viewType: LuaUserdataType<StateView>
  /// The view metatable's identity, to recognise views on the stack.
  private(set) var viewMetatable: UnsafeRawPointer?
  /// `copy(value)`: a plain Lua table of a view's value (or a deep copy of a table).
  public private(set) var copyFunction: LuaFunction!
  private(set) var pairsIteratorFunction: LuaFunction!
  private var readFunction: LuaFunction!

  // One session's state. `@exclusivity(unchecked)`: these are touched on every view access, and
  // dynamic exclusivity checks were a tenth of the cost of a write; no access to them overlaps
  // another (nothing here calls back into Lua while one is in progress).
  @exclusivity(unchecked) var value: Value = .null
  private(set) var generation: UInt64 = 1
  private(set) var isActive = false
  @exclusivity(unchecked) var undoLog = StateUndoLog()
  /// The writes of the sessions of the open transaction (paths from the whole state), or nil.
  private var transactionLog: StateUndoLog?
  /// Identified collections written by position in this session: checked for duplicate ids at the end.
  @exclusivity(unchecked) var positionallyWrittenCollections: Set<ValuePath> = []
  @exclusivity(unchecked) private var viewsWithChildren: [StateView] = []
  private var readResult: Value = .null
  private var readHint: Value?

  /// Registers the view type and, unless `copyGlobal` is nil, a global `copy` function.
  public init(lua: LuaState, rootName: String = "state", copyGlobal: String? = "copy") throws {
    self.lua = lua
    self.rootName = rootName
    viewType = try lua.register(
      type: StateView.self, name: "StateView",
      rawMethods: [
        "__index": { view, stack in try view.host.index(view, stack) },
        "__newindex": { view, stack in try view.host.newIndex(view, stack) },
        "__len": { view, stack in try view.host.length(view, stack) },
        "__pairs": { view, stack in try view.host.pairs(view, stack) },
        "__tostring": { view, stack in
          stack.push("StateView: " + describePath(view.path, root: view.host.rootName) + (view.isValid ? "" : " (stale)"))
          return .values(1)
        },
      ])
    // Lua may outlive this object (a global `copy`), so the functions hold it weakly.
    pairsIteratorFunction = try lua.rawFunction { [weak self] stack in
      guard let self else { throw StateViews.goneError }
      return try self.nextEntry(stack)
    }
    copyFunction = try lua.rawFunction { [weak self] stack in
      guard let self else { throw StateViews.goneError }
      let L = stack.unsafeState
      let copied = try self.read(at: 1, in: L, root: "value", path: [], hint: nil)
      try copied.push(onto: L)
      return .values(1)
    }
    readFunction = try lua.rawFunction { [weak self] stack in
      guard let self else { throw StateViews.goneError }
      self.readResult = try self.read(at: 1, in: stack.unsafeState, root: self.rootName, path: [], hint: self.readHint)
      return .none
    }
    // Generation 0 is never current, so this probe view is stale from the start.
    let probe = StateView(host: self, generation: 0, path: [])
    viewMetatable = try lua.withRawState { [viewType] L in
      try LuaStack.reserveRaw(L, 3)
      viewType.push(probe, onto: L)
      lua_getmetatable(L, -1)
      defer { lua_settop(L, -3) }
      return lua_topointer(L, -1)
    }
    if let copyGlobal { try lua.setGlobal(copyGlobal, .function(copyFunction)) }
  }

  // MARK: Sessions

  // MARK: Transactions

  /// Starts collecting the writes of every session until `endTransaction`, so that a failure late
  /// in a send can undo what earlier reducers of the same send wrote (without a snapshot, which
  /// would make the next write into a big collection copy it).
  public func beginTransaction() { transactionLog = StateUndoLog() }

  public func endTransaction() { transactionLog = nil }

  /// Undoes, newest first, every write the transaction's sessions made to `root` (the whole state).
  public func rollBackTransaction(_ root: inout Value) {
    transactionLog?.rollBack(&root)
    transactionLog = nil
  }

  /// Records a write made outside the views (a binding), at a path from the whole state.
  public func recordWrite(at containerPath: ValuePath, key: String, old: Value) {
    transactionLog?.record(.init(containerPath: containerPath, component: .key(key), change: .replaced, old: old))
  }

  /// Whether a transaction is open.
  public var inTransaction: Bool { transactionLog != nil }

  /// Runs one reducer call over `state` (see the type's documentation). If `body` throws, or the
  /// writes broke an identified collection's unique ids, `state` is exactly what it was.
  /// `anchor`: where `state` sits in the whole state, for the open transaction (nil: its writes
  /// are not kept, e.g. a derived value that is written back through another session).
  public func withViews<R>(of state: inout Value, anchor: ValuePath? = nil, _ body: (StateSession) throws -> R) throws -> R {
    guard !isActive else { throw LuaError.runtime(message: "state views: a session is already running", traceback: nil) }
    swap(&value, &state)
    isActive = true
    defer {
      isActive = false
      generation &+= 1
      releaseChildViews()
      positionallyWrittenCollections.removeAll(keepingCapacity: true)
      swap(&value, &state)
      value = .null
    }
    do {
      let result = try body(StateSession(host: self, generation: generation))
      try checkIdentifiedCollections()
      if let anchor, transactionLog != nil, !undoLog.isEmpty { transactionLog!.append(undoLog, at: anchor) }
      undoLog.clear()
      return result
    } catch {
      undoLog.rollBack(&value)
      for path in positionallyWrittenCollections { try? reindexIdentified(at: path) }
      throw error
    }
  }

  /// Converts a Lua value (a table, a view, a scalar) to a `Value`, with the same rules as writes.
  public func value(from luaValue: LuaValue, hint: Value? = nil) throws -> Value {
    readHint = hint
    defer { readResult = .null; readHint = nil }
    try lua.call(readFunction, luaValue)
    return readResult
  }

  private func checkIdentifiedCollections() throws {
    for path in positionallyWrittenCollections {
      do {
        try reindexIdentified(at: path)
      } catch let error as ValueError {
        throw LuaError.runtime(message: describePath(path, root: rootName) + ": \(error)", traceback: nil)
      }
    }
  }

  private func reindexIdentified(at path: ValuePath) throws {
    guard case .identified = value[path: path] else { return }
    try value[path: path].reindexIdentified()
  }

  private func releaseChildViews() {
    guard !viewsWithChildren.isEmpty else { return }
    try? lua.withRawState { L in
      for view in viewsWithChildren {
        for child in view.children.values { luaL_unref(L, relua_registryindex(), child.reference) }
        view.children = [:]
      }
    }
    viewsWithChildren.removeAll(keepingCapacity: true)
  }

  // MARK: Pushing views

  /// Pushes what Lua sees at `path`: a view for a container, the plain value for a scalar.
  func pushEntry(at path: ValuePath, of value: Value, onto L: OpaquePointer) throws {
    if value.isContainer {
      viewType.push(StateView(host: self, generation: generation, path: path), onto: L)
    } else {
      try value.push(onto: L)
    }
  }

  /// Pushes the child at `component` of `view` (a cached child view, or a scalar).
  func pushChild(of view: StateView, _ component: PathComponent, _ child: Value, onto L: OpaquePointer) throws {
    guard child.isContainer else { return try child.push(onto: L) }
    if view.detached != nil {
      // A child of a detached value is detached too (not cached: this is the rare path).
      let childView = StateView(host: self, generation: generation, path: view.path + [component])
      childView.detached = child
      viewType.push(childView, onto: L)
      return
    }
    if let cached = view.children[component] {
      lua_rawgeti(L, relua_registryindex(), lua_Integer(cached.reference))
      return
    }
    let childView = StateView(host: self, generation: generation, path: view.path + [component])
    viewType.push(childView, onto: L)
    lua_pushvalue(L, -1)
    if view.children.isEmpty { viewsWithChildren.append(view) }
    view.children[component] = (luaL_ref(L, relua_registryindex()), childView)
  }

  /// The slot `component` of `view` was overwritten: its cached child view (and that one's
  /// children) keep what they showed, detached from the state.
  func detachChild(of view: StateView, _ component: PathComponent, oldValue: Value, _ L: OpaquePointer) {
    guard let cached = view.children.removeValue(forKey: component) else { return }
    luaL_unref(L, relua_registryindex(), cached.reference)
    detach(cached.view, value: oldValue, L)
  }

  private func detach(_ view: StateView, value: Value, _ L: OpaquePointer) {
    view.detached = value
    for (component, cached) in view.children {
      luaL_unref(L, relua_registryindex(), cached.reference)
      detach(cached.view, value: value[component], L)
    }
    view.children = [:]
  }

  /// The StateView at `index`, if that is one.
  func view(at index: Int32, in L: OpaquePointer) -> StateView? {
    guard let box = relua_toobject(L, index, viewMetatable), let context = box.pointee.context else { return nil }
    return Unmanaged<StateView>.fromOpaque(context).takeUnretainedValue()
  }

  /// Reads the Lua value at `index` into a `Value` (views give their current value).
  func read(
    at index: Int32, in L: OpaquePointer, root: String, path: ValuePath, component: PathComponent? = nil, hint: Value?
  ) throws -> Value {
    // Scalars and views without building a reader (the common case of a write).
    switch lua_type(L, index) {
    case LUA_TNIL: return .null
    case LUA_TBOOLEAN: return .boolean(lua_toboolean(L, index) != 0)
    case LUA_TNUMBER:
      if lua_isinteger(L, index) != 0 { return .integer(lua_tointegerx(L, index, nil)) }
      return .float(lua_tonumberx(L, index, nil))
    case LUA_TSTRING:
      var length = 0
      let pointer = lua_tolstring(L, index, &length)
      if let text = String(validating: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self) {
        return .string(text)
      }
    case LUA_TUSERDATA:
      if let view = view(at: index, in: L) {
        guard view.isValid else { throw staleError(L) }
        return view.detached ?? value[path: view.path]
      }
    default: break
    }
    var reader = LuaValueReader(L: L, root: root, basePath: path, baseComponent: component) { [unowned self] L, index in
      guard let view = self.view(at: index, in: L) else { return nil }
      guard view.isValid else { throw LuaError.runtime(message: luaCallerLocation(L) + Self.staleMessage, traceback: nil) }
      return view.detached ?? self.value[path: view.path]
    }
    do {
      return try reader.read(at: index, hint: hint)
    } catch let error as ValueError {
      throw LuaError.runtime(message: luaCallerLocation(L) + error.description, traceback: nil)
    }
  }
}

/// One reducer call's access to the state (valid inside `StateViews.withViews` only).
public struct StateSession {
  let host: StateViews
  let generation: UInt64

  /// The state as it is now (a copy-on-write snapshot).
  public var value: Value { host.value }

  /// Number of writes so far.
  public var changeCount: Int { host.undoLog.entries.count }

  /// What Lua should receive for the state at `path`: a view of a container, else the plain
  /// value (scalars cannot be views).
  public func view(at path: ValuePath = []) throws -> LuaValue {
    let value = host.value[path: path]
    guard value.isContainer else { return try host.lua.value(value) }
    return .userdata(try host.lua.userdata(StateView(host: host, generation: generation, path: path)))
  }

  /// The fast form of `view(at:)`: pushes onto a raw stack (one slot; reserve it first).
  public func pushView(at path: ValuePath = [], onto L: OpaquePointer) throws {
    try host.pushEntry(at: path, of: host.value[path: path], onto: L)
  }
}

extension LuaStack {
  static func reserveRaw(_ L: OpaquePointer, _ count: Int32) throws {
    guard lua_checkstack(L, count) != 0 else { throw LuaError.memory(message: "Lua stack overflow") }
  }
}

extension Value {
  mutating func reindexIdentified() throws {
    guard case .identified(var collection) = self else { return }
    self = .null
    defer { self = .identified(collection) }
    try collection.reindex()
  }
}
