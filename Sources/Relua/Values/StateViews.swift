import CReluaShim
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
package final class StateViews {
  package static let staleMessage = "state can only change inside a reducer"

  unowned let lua: LuaState
  /// How paths start in messages (`state.results[3]`).
  package let rootName: String
  /// `copy(value)`: a plain Lua table of a view's value (or a deep copy of a table).
  package private(set) var copyFunction: LuaFunction!
  private(set) var pairsIteratorFunction: LuaFunction!
  private var readFunction: LuaFunction!

  // One session's state. `@exclusivity(unchecked)`: these are touched on every view access, and
  // dynamic exclusivity checks were a tenth of the cost of a write; no access to them overlaps
  // another (nothing here calls back into Lua while one is in progress).
  @exclusivity(unchecked) var value: Value = .null
  @exclusivity(unchecked) private(set) var generation: UInt64 = 1
  @exclusivity(unchecked) private(set) var isActive = false
  /// The views of the running session (`ViewHandle.slot` indexes it).
  @exclusivity(unchecked) var slots: ViewSlots
  /// The writes of the running session, and of the open transaction's earlier sessions (kept
  /// with its capacity between transactions: a send that writes allocates no log).
  @exclusivity(unchecked) var undoLog = StateUndoLog()
  /// Whether a transaction is open.
  @exclusivity(unchecked) package private(set) var inTransaction = false
  /// Whether the running session is a view's (`view(state)` drawing a screen), for messages.
  package var isDrawing = false
  /// The path of a session's own state: an empty path with storage of its own (a literal `[]` is
  /// the runtime's shared empty array, whose retains all take the slow path).
  let rootPath: ValuePath = {
    var path = ValuePath()
    path.reserveCapacity(1)
    return path
  }()
  /// How many views one reducer call may make, its own included: what `ViewHandle` can address
  /// (a lower bound only for tests, which cannot make 16.7 million views).
  var viewLimit = ViewHandle.slotLimit {
    willSet { precondition(newValue > 0 && newValue <= ViewHandle.slotLimit, "state views: no view limit above \(ViewHandle.slotLimit)") }
  }
  /// Told what a write that may grow the state adds (the general write path: a table, a string,
  /// a new field); throwing refuses the write (the memory limit, see `StateMemory`).
  var willGrow: ((Int) throws -> Void)?
  /// Bytes a send holds outside the state until it ends (the payloads of its follow-up actions):
  /// counted by `StateMemory`, forgotten when the next transaction begins.
  @exclusivity(unchecked) var heldBytes = 0
  /// Identified collections written by position in this session: checked for duplicate ids at the end.
  @exclusivity(unchecked) var positionallyWrittenCollections: Set<ValuePath> = []
  private var readResult: Value = .null
  private var readHint: Value?
  /// Told before the running session's code first reads into a part of its state that the host
  /// keeps up to date lazily (nil for most sessions: set by the host after opening one, cleared
  /// when it ends).
  /// (Not retained: the host keeps its barrier as long as the views.)
  @exclusivity(unchecked) unowned(unsafe) var readBarrier: (any StateReadBarrier)?

  /// Installs the views' metatable (one `StateViews` per Lua state: light userdata share it) and,
  /// unless `copyGlobal` is nil, a global `copy` function.
  package init(lua: LuaState, rootName: String = "state", copyGlobal: String? = "copy") throws {
    self.lua = lua
    self.rootName = rootName
    slots = ViewSlots(rootPath: rootPath)
    // The metamethods are C-convention functions holding this object (Lua keeps it alive as
    // long as it can call them): no closure, no stack object per access.
    // `__index` and `__newindex` are the shim's (`viewMethods`: a short path for own fields).
    let metamethods: [(String, LuaCFunction)] = [
      ("__len", { L, context in StateViews.dispatch(L, context) { try $0.length($1) } }),
      ("__pairs", { L, context in StateViews.dispatch(L, context) { try $0.pairs($1) } }),
      ("__tostring", { L, context in StateViews.dispatch(L, context) { try $0.describe($1) } }),
    ]
    let functions = try metamethods.map { name, callback in (name, try lua.cFunction(callback, context: self)) }
    pairsIteratorFunction = try lua.cFunction({ L, context in StateViews.dispatch(L, context) { try $0.nextEntry($1) } }, context: self)
    // Lua keeps this object alive while it can call these (no weak reference: a weak reference
    // gives an object a side table, and every retain of it then takes the slow path).
    copyFunction = try lua.cFunction({ L, context in
      StateViews.dispatch(L, context) { views, L in
        let copied = try views.read(at: 1, in: L, root: "value", path: [], hint: nil)
        try copied.push(onto: L)
        return 1
      }
    }, context: self)
    readFunction = try lua.cFunction({ L, context in
      StateViews.dispatch(L, context) { views, L in
        views.readResult = try views.read(at: 1, in: L, root: views.rootName, path: [], hint: views.readHint)
        return 0
      }
    }, context: self)
    try lua.withRawStack { L in
      try L.reserve(4)
      L.push(lightUserdata: nil)
      if L.pushMetatable(of: -1) {
        throw LuaError.conversion("this Lua state already has state views (one StateViews per Lua state)")
      }
      L.createTable(recordCount: Int32(functions.count + 4))
      for (name, function) in functions {
        try function.push(onto: L)
        L.setField(name, at: -2)
      }
      try L.reserve(4)
      var methods = StateViews.viewMethods
      relua_pushviewmethods(L.rawState, &methods, Unmanaged.passRetained(self).toOpaque(), { context in
        Unmanaged<StateViews>.fromOpaque(context!).release()
      })
      L.setField("__newindex", at: -3)
      L.setField("__index", at: -2)
      L.push(string: "StateView")
      L.setField("__name", at: -2)
      L.push(string: "StateView")
      L.setField("__metatable", at: -2)
      L.setMetatable(at: -2)
      L.pop()
    }
    if let copyGlobal { try lua.setGlobal(copyGlobal, .function(copyFunction)) }
  }

  /// Runs a metamethod body for the `StateViews` behind `context`; its error becomes a Lua error
  /// raised by the trampoline once Swift has returned.
  @inline(__always)
  static func dispatch(
    _ L: OpaquePointer?, _ context: UnsafeMutableRawPointer?, _ body: (StateViews, LuaRawStack) throws -> Int32
  ) -> Int32 {
    // Guaranteed, not retained: Lua holds the object as long as it can call this.
    Unmanaged<StateViews>.fromOpaque(context!)._withUnsafeGuaranteedRef { views in
      do {
        return try body(views, LuaRawStack(L!))
      } catch {
        return views.lua.raiseStatus(error, on: L!)
      }
    }
  }

  // MARK: Sessions

  // MARK: Transactions

  /// Starts collecting the writes of every session until `endTransaction`, so that a failure late
  /// in a send can undo what earlier reducers of the same send wrote (without a snapshot, which
  /// would make the next write into a big collection copy it).
  package func beginTransaction() {
    // Empty unless a transaction was left open (each one ends by clearing it).
    if !undoLog.isEmpty { undoLog.clear() }
    inTransaction = true
    heldBytes = 0
  }

  package func endTransaction() {
    inTransaction = false
    undoLog.clear()
  }

  /// Undoes, newest first, every write the transaction's sessions made to `root` (the whole state).
  package func rollBackTransaction(_ root: inout Value) {
    if inTransaction { undoLog.rollBackAll(&root) }
    inTransaction = false
  }

  /// Records a write made outside the views (a binding), at a path from the whole state.
  package func recordWrite(at containerPath: ValuePath, key: String, old: Value) {
    guard inTransaction, !isActive else { return }
    undoLog.recordOutsideSession(.init(containerPath: containerPath, component: .key(key), change: .replaced, old: old))
  }

  /// Runs one reducer call over `state` (see the type's documentation). If `body` throws, or the
  /// writes broke an identified collection's unique ids, `state` is exactly what it was.
  /// `anchor`: where `state` sits in the whole state, for the open transaction (nil: its writes
  /// are not kept, e.g. a derived value that is written back through another session); asked
  /// only when the session wrote something.
  package func withViews<R>(
    of state: inout Value, anchor: () -> ValuePath? = { nil }, _ body: (StateSession) throws -> R
  ) throws -> R {
    try openSession(moving: &state)
    let result: R
    do {
      result = try body(StateSession(host: self))
    } catch {
      abortSession(returningTo: &state)
      throw error
    }
    try closeSession(returningTo: &state, anchor: sessionNeedsAnchor ? SessionAnchor(anchor()) : .none)
    return result
  }

  // The same in three steps, for the hot path of a handler call (no closures): open, let Lua
  // work on the state (`pushSessionState`), then close (or abort if the call failed).

  /// Starts a reducer call over `state`, moved in (O(1), no copy).
  @inline(__always)
  package func openSession(moving state: inout Value) throws {
    guard !isActive else { throw LuaError.runtime(message: "state views: a session is already running", traceback: nil) }
    assert(value.isNull, "state views: the views' value outlived a session")
    Self.move(&state, into: &value)
    isActive = true
    undoLog.beginSession()
  }

  /// Pushes what Lua sees of the running call's own state: its view, or the plain value when it
  /// is a scalar (one stack slot; reserve it first).
  @inline(__always)
  package func pushSessionState(onto L: LuaRawStack) throws {
    if value.isContainer {
      L.push(lightUserdata: rootHandle.pointer)
    } else {
      try value.push(onto: L)
    }
  }

  /// Whether the running call's writes are to be kept (it wrote, in a transaction): only then
  /// does `closeSession` need its anchor (a value, not a closure: a closure capturing the action
  /// made the hot path copy it).
  @inline(__always)
  package var sessionNeedsAnchor: Bool { inTransaction && undoLog.sessionCount > 0 }

  /// Ends the running call: its state goes back to `state`. Throws (with the state exactly as it
  /// was before the call) when the writes broke an identified collection's unique ids.
  /// `anchor`: where the call's state sits (see `sessionNeedsAnchor`; `.none` drops the writes).
  @inline(__always)
  package func closeSession(returningTo state: inout Value, anchor: SessionAnchor) throws {
    if !positionallyWrittenCollections.isEmpty {
      do {
        try checkIdentifiedCollections()
      } catch {
        abortSession(returningTo: &state)
        throw error
      }
    }
    undoLog.keepSession(anchor: inTransaction ? anchor : .none)
    finishSession(returningTo: &state)
  }

  /// Ends the running call after a failure: its writes are undone, and the state goes back to
  /// `state` exactly as it was before the call.
  package func abortSession(returningTo state: inout Value) {
    undoLog.rollBackSession(&value)
    for path in positionallyWrittenCollections { try? reindexIdentified(at: path) }
    finishSession(returningTo: &state)
  }

  @inline(__always)
  private func finishSession(returningTo state: inout Value) {
    isActive = false
    generation &+= 1
    if generation & ViewHandle.generationMask == 0 { generation &+= 1 }
    slots.removeAll()
    if !positionallyWrittenCollections.isEmpty { positionallyWrittenCollections.removeAll(keepingCapacity: true) }
    if readBarrier != nil { readBarrier = nil }
    assert(state.isNull, "state views: the caller's state changed while a session ran")
    Self.move(&value, into: &state)
  }

  /// Moves `source` into `destination`, which holds `.null` (nothing to destroy), leaving `.null`
  /// behind: the session's state goes in and out this way. (A `swap` kept the `.null` it took
  /// out in four stack slots across the whole call, to put it back at the end.)
  @inline(__always)
  private static func move(_ source: inout Value, into destination: inout Value) {
    withUnsafeMutablePointer(to: &source) { source in
      withUnsafeMutablePointer(to: &destination) { $0.initialize(to: source.move()) }
      source.initialize(to: .null)
    }
  }

  /// Converts a Lua value (a table, a view, a scalar) to a `Value`, with the same rules as writes.
  package func value(from luaValue: LuaValue, hint: Value? = nil) throws -> Value {
    // A scalar reads as `read` would read it, without the protected call (an effect's
    // `send("done")` has a nil payload: that call was a twentieth of its cost).
    switch luaValue {
    case .nil: return .null
    case .boolean(let boolean): return .boolean(boolean)
    case .integer(let integer): return .integer(integer)
    case .number(let number): return .float(number)
    default: break
    }
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

  // MARK: Pushing views

  /// A new view of the running session: its handle, for a new slot. `L`: the Lua state whose
  /// code asked for it, if any (an error then names the script's line).
  func makeView(path: ValuePath, detached: Value? = nil, for L: LuaRawStack? = nil) throws -> ViewHandle {
    if path.isEmpty, detached == nil { return rootHandle }
    if let readBarrier, detached == nil { try readBarrier.willRead(self, under: path[0]) }
    guard slots.count < viewLimit else {
      let location = L.map(luaCallerLocation) ?? ""
      throw LuaError.runtime(message: location + "a reducer call made more than \(viewLimit) state views", traceback: nil)
    }
    let slot = slots.append(path: path.isEmpty ? rootPath : path, detached: detached)
    return ViewHandle(generation: generation, slot: slot, isRoot: false)
  }

  /// The view of the session's own state: slot 0, always there (no slot to make per call).
  var rootHandle: ViewHandle { ViewHandle(generation: generation, slot: 0, isRoot: true) }

  /// Pushes the child at `component` of the view in `slot` (its cached child view, or a scalar).
  func pushChild(ofSlot slot: Int, _ component: PathComponent, _ child: Value, onto L: LuaRawStack) throws {
    guard child.isContainer else { return try child.push(onto: L) }
    if slots.detached(slot) != nil {
      // A child of a detached value is detached too (not cached: this is the rare path).
      return L.push(lightUserdata: try makeView(path: slots.path(of: slot) + [component], detached: child, for: L).pointer)
    }
    if let cached = slots.child(of: slot, component) {
      return L.push(lightUserdata: ViewHandle(generation: generation, slot: cached, isRoot: false).pointer)
    }
    let handle = try makeView(path: slots.path(of: slot) + [component], for: L)
    slots.setChild(of: slot, component, to: handle.slot)
    L.push(lightUserdata: handle.pointer)
  }

  /// The slot of the view at `index` if that is a view of the running session; nil when it is
  /// no view; throws "state can only change inside a reducer" for a view of an ended session.
  @inline(__always)
  func liveSlot(at index: Int32, in L: LuaRawStack) throws -> Int? {
    try liveHandle(at: index, in: L)?.slot
  }

  /// The handle of the view at `index` (see `liveSlot`).
  @inline(__always)
  func liveHandle(at index: Int32, in L: LuaRawStack) throws -> ViewHandle? {
    guard L.type(at: index) == .lightUserdata, let handle = ViewHandle(L.userdata(at: index)) else { return nil }
    guard isActive, handle.generation == generation & ViewHandle.generationMask, handle.slot < slots.count else {
      throw staleError(L)
    }
    return handle
  }

  /// The current value a view shows.
  @inline(__always)
  func viewedValue(_ slot: Int) -> Value {
    if let detached = slots.detached(slot) { return detached }
    let path = slots.path(of: slot)
    return path.isEmpty ? value : value[path: path]
  }

  /// The value a view shows, read whole (copied or assigned elsewhere): the session's own state is
  /// brought up to date first where the host keeps parts of it lazily (see `readBarrier`; other
  /// views were, when they were made).
  func wholeValue(ofSlot slot: Int) throws -> Value {
    if slot == 0, let readBarrier, slots.detached(slot) == nil { try readBarrier.willReadWhole(self) }
    return viewedValue(slot)
  }

  /// The number (integer or float, as Lua has it) or boolean at `index`; nil for other types.
  @inline(__always)
  func numberOrBoolean(at index: Int32, in L: LuaRawStack) -> Value? {
    switch L.type(at: index) {
    case .boolean: return .boolean(L.boolean(at: index))
    case .number:
      return L.isInteger(at: index) ? .integer(L.integerValue(at: index)) : .float(L.numberValue(at: index))
    default: return nil
    }
  }

  /// Reads the Lua value at `index` into a `Value` (views give their current value).
  func read(
    at index: Int32, in L: LuaRawStack, root: String, path: ValuePath, component: PathComponent? = nil, hint: Value?
  ) throws -> Value {
    // Scalars and views without building a reader (the common case of a write).
    switch L.type(at: index) {
    case .nil: return .null
    case .boolean, .number: return numberOrBoolean(at: index, in: L)!
    case .string:
      if let bytes = L.stringBytes(at: index), let text = String(validating: bytes, as: UTF8.self) {
        return .string(text)
      }
    case .lightUserdata:
      if let slot = try liveSlot(at: index, in: L) {
        // A view assigned elsewhere copies its value, which must still fit the depth bound there
        // (`s.a = s` in a loop would otherwise nest the state one level deeper each time).
        let value = try wholeValue(ofSlot: slot)
        let depth = path.count + (component == nil ? 0 : 1)
        if depth > 0, value.nests(deeperThan: Value.maxDepth - depth) {
          throw LuaError.runtime(
            message: luaCallerLocation(L) + ValueError.conversion(path: describeLongPath(path + (component.map { [$0] } ?? []), root: root), message: Value.tooDeepMessage).description,
            traceback: nil)
        }
        return value
      }
    default: break
    }
    var reader = LuaValueReader(L: L, root: root, basePath: path, baseComponent: component) { [unowned self] L, index in
      try self.liveSlot(at: index, in: L).map(self.wholeValue(ofSlot:))
    }
    do {
      return try reader.read(at: index, hint: hint)
    } catch let error as ValueError {
      throw LuaError.runtime(message: luaCallerLocation(L) + error.description, traceback: nil)
    }
  }
}

/// One reducer call's access to the state (valid inside `StateViews.withViews` only).
package struct StateSession {
  let host: StateViews

  /// The state as it is now (a copy-on-write snapshot).
  package var value: Value { host.value }

  /// Number of writes so far.
  package var changeCount: Int { host.undoLog.sessionCount }

  /// What Lua should receive for the state at `path`: a view of a container, else the plain
  /// value (scalars cannot be views).
  package func view(at path: ValuePath = []) throws -> LuaValue {
    let value = host.value[path: path]
    guard value.isContainer else { return try host.lua.value(value) }
    return .lightUserdata(try host.makeView(path: path).pointer)
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
