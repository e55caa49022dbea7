import CLua
import CLuaShim
import Composable
import Lua

/// The feature host of one Lua state: `require "relua"`, the compiled features, the state views
/// Lua reducers write through, the dependencies Lua sees, and the calls into Lua handlers.
/// One per `LuaState` (`ReluaHost.install(in:)`), on the main actor with the state.
@MainActor
public final class ReluaHost {
  public let lua: LuaState
  let views: StateViews
  let tags = ReluaTags()
  let driver: LuaCoroutineDriver
  private(set) var compiler: FeatureCompiler!
  /// The `relua` module table.
  public private(set) var module: LuaTable!
  /// The `deps` table handed to reducers, `state(deps)` and effects.
  private(set) var deps: LuaTable!
  /// The dependencies scripts reach by name (`relua.dependency`, `register(_:)`).
  private(set) var named: NamedDependencies!
  /// Features written in Swift that scripts compose (`relua.swiftFeature`), and their tables.
  var swiftFeatures: [String: ReluaSwiftFeature] = [:]
  var swiftFeatureTables: [String: LuaValue] = [:]
  /// `deps`' registry reference: handler calls push it directly (the host keeps `deps` alive).
  private var depsReference: lua_Integer = 0
  private var resolvers: [ObjectIdentifier: ActionResolver] = [:]
  /// Test stores made in this state (checked for pending work when a test ends).
  var testStores: [LuaTestStoreObject] = []
  /// The task handle of every send that started no effect: one userdata for all of them.
  private(set) var noEffectsTask: LuaUserdata!
  private(set) var storeTaskType: LuaUserdataType<LuaStoreTaskObject>!
  /// The state this host holds for scripts, charged against the memory limit.
  private(set) var stateMemory: StateMemory!
  /// The error of the last Lua reducer that raised (the test store reports it as the failure).
  var lastReducerError: ReluaError?
  /// Errors a scripted dependency raised (a `deps = { github = function … }` stub calling
  /// `error`): the next test-store operation fails with them (a recorded session's stub raises when
  /// the replay asks another query than the session did).
  var dependencyFailures: [String] = []

  /// The dependency failures so far, forgotten here (each is reported once).
  func takeDependencyFailures() -> [String] {
    defer { dependencyFailures.removeAll() }
    return dependencyFailures
  }
  /// The store and action being processed right now (see `StateAnchors`). Written by the root
  /// reducers, which stores run on the main actor; `nonisolated(unsafe)` spares the per-action
  /// executor check of `MainActor.assumeIsolated`.
  nonisolated(unsafe) let currentSend = CurrentSend()

  private struct Entry {
    weak var state: LuaState?
    let host: ReluaHost
  }

  private static var hosts: [ObjectIdentifier: Entry] = [:]

  /// The host of `lua`, installing `require "relua"` (and a global `relua`) on first use.
  @discardableResult
  public static func install(in lua: LuaState) throws -> ReluaHost {
    let key = ObjectIdentifier(lua)
    if let entry = hosts[key], entry.state === lua { return entry.host }
    // A host keeps its state (`lua` is strong), so the weak reference alone never clears: a
    // closed state's host goes too (else every state a process made stayed, ≈ 4 KB each).
    hosts = hosts.filter { $0.value.state.map { !$0.isClosed } ?? false }
    let host = try ReluaHost(lua: lua)
    hosts[key] = Entry(state: lua, host: host)
    return host
  }

  private init(lua: LuaState) throws {
    self.lua = lua
    // Every reducer call makes a view (a userdata owning a Swift object the collector cannot see):
    // generational collection frees them young (measured: 1M sends, +60 MB resident → flat).
    try lua.withRawState { relua_gc_generational($0) }
    views = try StateViews(lua: lua)
    driver = try LuaCoroutineDriver.of(lua)
    compiler = FeatureCompiler(tags: tags) { [unowned self] name in self.swiftFeatures[name]?.reducer }
    stateMemory = StateMemory(lua: lua, views: views) { [unowned self] in self.heldStates() }
    views.willGrow = { [unowned self] bytes in try self.stateMemory.willGrow(by: bytes) }
    named = try NamedDependencies(host: self)
    deps = try LuaDependencies.makeTable(host: self)
    depsReference = lua_Integer(deps.registryReference)
    let primitives = try lua.table()
    try primitives.rawSet("where", .function(lua.rawFunction { stack in
      let level = try stack.int(at: 1, default: 1)
      stack.push(luaLocation(stack.unsafeState, level: Int32(level)) ?? "?")
      return .values(1)
    }))
    try primitives.rawSet("copy", .function(views.copyFunction))
    try primitives.rawSet("deps", .function(lua.rawFunction { [unowned self] stack in
      try self.deps.push(onto: stack.unsafeState)
      return .values(1)
    }))
    // The next stack element id of the store reducing now, at least the given one (see
    // `StackElementIDGenerator`).
    try primitives.rawSet("nextStackID", .function(lua.function { stack in
      let minimum = try stack.int(at: 1)
      return [.integer(Int64(DependencyValues.current.stackElementID.next(atLeast: minimum)))]
    }))
    try primitives.rawSet("markIdentified", .function(lua.rawFunction { stack in
      let L = stack.unsafeState
      guard lua_type(L, 1) == LUA_TTABLE else { throw LuaError.argument(position: 1, message: "table expected") }
      lua_settop(L, 1)
      IdentifiedMarker.mark(tableAtTopOf: L)
      return .values(1)
    }))
    try primitives.rawSet("register", .function(lua.function { [unowned self] stack in
      try self.tags.register(stack.values)
      return []
    }))
    let prelude = try lua.load(ReluaPrelude.source, name: ReluaPrelude.chunkName)
    guard let module = try lua.call(prelude, .table(primitives)).first?.tableValue else {
      throw ReluaError.usage("the relua prelude did not return its module")
    }
    self.module = module
    try module.rawSet("dependency", .function(lua.function { [unowned self] stack in
      [try self.declareDependency(stack)]
    }))
    try module.rawSet("deps", .table(deps))
    for dependency in Self.everyStateDependencies { try register(dependency) }
    for feature in Self.everyStateSwiftFeatures { register(feature) }
    try module.rawSet("swiftFeature", .function(lua.function { [unowned self] stack in
      [try self.swiftFeatureTable(try stack.string(at: 1))]
    }))
    try module.rawSet("Store", .function(lua.function { [unowned self] stack in
      [try LuaStoreObject.make(host: self, stack: stack)]
    }))
    try module.rawSet("TestStore", .function(lua.function { [unowned self] stack in
      [try LuaTestStoreObject.make(host: self, stack: stack)]
    }))
    try module.rawSet("uuid", .function(lua.function { stack in
      let n = try stack.int(at: 1)
      guard n >= 0 else { throw LuaError.argument(position: 1, message: "expected a non-negative integer, got \(n)") }
      return [.text(UUID(n).uuidString)]
    }))
    try module.rawSet("fromJSON", .function(lua.function { [unowned self] stack in
      [try self.lua.value(try Value(json: try stack.string(at: 1)))]
    }))
    try module.rawSet("toJSON", .function(lua.function { [unowned self] stack in
      [.text(try self.value(from: stack.value(at: 1)).json(pretty: stack.isTruthy(at: 2)))]
    }))
    storeTaskType = try LuaStoreTaskObject.register(in: self)
    noEffectsTask = try lua.userdata(LuaStoreTaskObject(StoreTask()))
    try LuaStoreObject.register(in: self, scope: module.rawGet("scopeStore"))
    try LuaTestStoreObject.register(in: self)
    let package = try lua.global("package").tableValue
    try package?["loaded"].tableValue?.rawSet("relua", .table(module))
    try lua.setGlobal("relua", .table(module))
  }

  /// Stores made in this state, without keeping them alive (a store removes itself when it goes;
  /// no weak reference: see `StoreRootLink`). Their effects are stopped before the state closes.
  private var stores: [ObjectIdentifier: Unmanaged<Store<Value, FeatureAction>>] = [:]

  func track(_ store: Store<Value, FeatureAction>) { stores[ObjectIdentifier(store)] = .passUnretained(store) }

  func untrack(_ store: Store<Value, FeatureAction>) { stores[ObjectIdentifier(store)] = nil }

  /// Every store of this state, test stores' included.
  private var liveStores: [Store<Value, FeatureAction>] {
    stores.values.map { $0.takeUnretainedValue() } + testStores.map(\.testStore.store)
  }

  /// Every state this host holds for its scripts (see `StateMemory`).
  private func heldStates() -> [(owner: ObjectIdentifier?, state: Value?)] {
    let held = liveStores
    var states = held.map { store in (owner: Optional(ObjectIdentifier(store)), state: store.isSending ? nil : Optional(store.state)) }
    if views.isActive { states.append((owner: nil, state: views.value)) }
    return states
  }

  /// Cancels the effects of every store of this state and waits (up to 2 s each) until they have
  /// ended: a coroutine must never be resumed after its Lua state closed.
  public func stopEffects() async {
    let live = liveStores
    for store in live { store.cancelAllEffects() }
    for store in live { await store.waitForEffects(timeout: .seconds(2)) }
  }

  /// Cancels the effects every store of this state is running (the REPL's Ctrl-C at a prompt:
  /// effects that start effects without end cannot be stopped otherwise); how many there were.
  @discardableResult
  public func cancelRunningEffects() -> Int {
    let live = liveStores
    let running = live.reduce(0) { $0 + $1.effectsInFlight }
    for store in live where store.effectsInFlight > 0 { store.cancelAllEffects() }
    return running
  }

  /// Runs the end-of-test checks of every test store made in this state; throws them as one error.
  public func finishTests() throws {
    let stores = testStores
    let messages = stores.flatMap { $0.finishTest() }
    if !messages.isEmpty {
      throw LuaError.runtime(
        message: "at the end of the test, a TestStore still has work: " + messages.joined(separator: "\n\n"), traceback: nil)
    }
  }

  /// The compiled definition of a feature table.
  func feature(_ value: LuaValue, what: String) throws -> FeatureDefinition {
    try compiler.definition(of: value, what: what)
  }

  func resolver(for feature: FeatureDefinition) -> ActionResolver {
    let key = ObjectIdentifier(feature)
    if let resolver = resolvers[key] { return resolver }
    let resolver = ActionResolver(root: feature)
    resolvers[key] = resolver
    return resolver
  }

  /// A Lua value (table, view, scalar) as state.
  func value(from luaValue: LuaValue, hint: Value? = nil) throws -> Value {
    try views.value(from: luaValue, hint: hint)
  }

  // MARK: Initial state

  /// The feature's initial state: `state(deps)` with the given dependencies, or its table.
  func initialState(of feature: FeatureDefinition, dependencies: DependencyValues) throws -> Value {
    let initial = try feature.table.rawGet("state")
    let raw: Value
    if let function = initial.functionValue {
      let result = try DependencyValues.withValues(dependencies) { try lua.call(function, .table(deps)) }
      guard let table = result.first, case .table = table else {
        throw ReluaError.usage("\(feature.definedAt): feature '\(feature.name)': state(deps) must return a table")
      }
      raw = try value(from: table)
    } else {
      raw = try value(from: initial)
    }
    do {
      try FeatureStateCheck.check(raw, against: feature)
    } catch let error as ReluaError {
      throw ReluaError.usage("\(feature.definedAt): feature '\(feature.name)': its initial state does not fit its composition: \(error.fullDescription)")
    }
    return FeatureStateShape.conform(raw, to: feature)
  }

  // MARK: Calling Lua reducers

  /// Runs a `relua.on` handler: `handler(state, payload, deps, id)` on a live view of `state`.
  /// `handler`: the registry reference of a handler of one of this host's features (they live as
  /// long as the host); `argumentCount`: how many of those arguments it declares (1–4, see
  /// `FeatureHandler`).
  func runHandler(
    _ handler: Int32, argumentCount: Int32, feature: FeatureDefinition, state: inout Value, action: FeatureAction
  ) -> Effect<FeatureAction> {
    // The handler goes to `runLua` as a registry reference, not in a closure: a closure literal
    // stayed a function of its own even with `runLua` inlined (≈ 20 instructions a send).
    runLua(feature: feature, state: &state, action: action, handler: handler, argumentCount: argumentCount) { nil }
  }

  /// Calls the handler at `handler` for `action` on the running session.
  @inline(__always)
  private func callHandler(_ handler: Int32, argumentCount: Int32, action: FeatureAction) throws -> LuaValue? {
    // The common shape (a view, no payload, no id) is one C call; anything else pushes its
    // arguments from Swift, out of line.
    if action.payload.isNull, views.value.isContainer, !Self.namesID(action) {
      return try callHandlerOnView(handler, argumentCount: argumentCount)
    }
    return try callHandlerPushingArguments(handler, action: action)
  }

  /// `handler(state, payload, deps, id)` with the arguments pushed from Swift.
  @inline(never)
  private func callHandlerPushingArguments(_ handler: Int32, action: FeatureAction) throws -> LuaValue? {
    try lua.callRaw(
      registryReference: handler, argumentCount: 4,
      pushArguments: { L in
        try views.pushSessionState(onto: L)
        if action.payload.isNull { lua_pushnil(L) } else { try action.payload.push(onto: L) }
        lua_rawgeti(L, relua_registryindex(), depsReference)
        if let id = action.firstID { try id.push(onto: L) } else { lua_pushnil(L) }
      },
      readResults: { L, first, count in Self.firstResult(lua, L, first, count) })
  }

  /// Whether `action` names an element (the handler's `id`): `firstID != nil` without copying it.
  @inline(__always)
  private static func namesID(_ action: FeatureAction) -> Bool {
    var index = action.steps.startIndex
    while index < action.steps.endIndex {
      if case .id = action.steps[index] { return true }
      index += 1
    }
    return false
  }

  /// `handler(view, nil, deps, nil)` (as many of them as it declares) on the running session's
  /// own view, in one C call (`relua_callhandler`): what `callRaw` does with the arguments pushed
  /// from Swift, without crossing between Swift and C for each of them. Returns the handler's
  /// first result unless nil.
  @inline(__always)
  private func callHandlerOnView(_ handler: Int32, argumentCount: Int32) throws -> LuaValue? {
    let L = try lua.currentRawState()
    let status = relua_callhandler(L, lua_Integer(handler), views.rootHandle.pointer, depsReference, argumentCount)
    if status == LUA_OK { return nil }
    return try handlerResult(status: status, on: L)
  }

  /// What a handler called by `relua_callhandler` returned (a value), or its error.
  @inline(never)
  private func handlerResult(status: Int32, on L: OpaquePointer) throws -> LuaValue? {
    if status == RELUA_HANDLER_NOROOM { throw LuaError.memory(message: "Lua stack overflow") }
    defer { lua_settop(L, -3) }  // the result or error, and the message handler
    if status == RELUA_HANDLER_RETURNED { return lua.value(at: -1, in: L) }
    throw lua.callFailure(status: status, on: L)
  }

  /// Runs a plain `reduce = function(state, action, deps)`; `action` is `{ name, payload, id }`.
  func runReduceFunction(
    _ function: LuaFunction, feature: FeatureDefinition, state: inout Value, action: FeatureAction
  ) -> Effect<FeatureAction> {
    runLua(feature: feature, state: &state, action: action) {
      try lua.callRaw(
        function, argumentCount: 3,
        pushArguments: { L in
          try views.pushSessionState(onto: L)
          try Self.pushRecord(of: action, onto: L)
          lua_rawgeti(L, relua_registryindex(), depsReference)
        },
        readResults: { L, first, count in Self.firstResult(lua, L, first, count) })
    }
  }

  /// Runs a `relua.onChange` handler: `handler(state, old, new, deps, action)`.
  func runOnChange(
    _ handler: LuaFunction, feature: FeatureDefinition, state: inout Value, old: Value, new: Value,
    action: FeatureAction
  ) -> Effect<FeatureAction> {
    runLua(feature: feature, state: &state, action: action) {
      try lua.callRaw(
        handler, argumentCount: 5,
        pushArguments: { L in
          try views.pushSessionState(onto: L)
          try old.push(onto: L)
          try new.push(onto: L)
          lua_rawgeti(L, relua_registryindex(), depsReference)
          try Self.pushRecord(of: action, onto: L)
        },
        readResults: { L, first, count in Self.firstResult(lua, L, first, count) })
    }
  }

  /// The value a `relua.onChange` entry watches in `state`: the value at its path, or what its
  /// function returns on a read-only look at the state.
  func watched(_ watched: FeatureOnChange.Watched, in state: Value) throws -> Value {
    switch watched {
    case .path(let path):
      return try state.at(path: path)
    case .projection(let projection):
      var copy = state
      return try views.withViews(of: &copy) { session in
        guard let result = try lua.call(projection, session.view()).first else { return .null }
        return try value(from: result)
      }
    }
  }

  /// An action as Lua code sees it whole: `{ name = "rows[42].toggle", pattern = "rows.toggle",
  /// payload = …, id = 42 }` (a plain reducer's `action`, a test store's receive predicate's).
  static func pushRecord(of action: FeatureAction, onto L: OpaquePointer) throws {
    lua_createtable(L, 0, 4)
    pushLuaString(action.name, onto: L)
    lua_setfield(L, -2, "name")
    pushLuaString(action.pattern, onto: L)
    lua_setfield(L, -2, "pattern")
    try action.payload.push(onto: L)
    lua_setfield(L, -2, "payload")
    if let id = action.firstID {
      try id.push(onto: L)
      lua_setfield(L, -2, "id")
    }
  }

  /// One Lua reducer call over `state`: the views' session opened, the handler at `handler` called
  /// (or `call` when `handler` is nil), the session closed (or undone if the call raised), and
  /// what the call returned as an effect. Straight-line code: this is the hot path of every send.
  @inline(__always)
  private func runLua(
    feature: FeatureDefinition, state: inout Value, action: FeatureAction, handler: Int32? = nil,
    argumentCount: Int32 = 4, _ call: () throws -> LuaValue?
  ) -> Effect<FeatureAction> {
    let returned: LuaValue?
    do {
      try views.openSession(moving: &state)
      do {
        // `handler` is a constant where this is inlined: one of the two calls remains.
        if let handler {
          returned = try callHandler(handler, argumentCount: argumentCount, action: action)
        } else {
          returned = try call()
        }
      } catch {
        views.abortSession(returningTo: &state)
        throw error
      }
      try views.closeSession(
        returningTo: &state, anchor: views.sessionNeedsAnchor ? anchor(forLeafAction: action) : .none)
      guard let returned else { return .none }
      return try LuaEffects.effect(from: returned, feature: feature, host: self)
    } catch {
      return reducerFailure(error, feature: feature, action: action)
    }
  }

  /// A reducer's error as the effect that fails the send (kept for `lastReducerError`).
  func reducerFailure(_ error: any Error, feature: FeatureDefinition, action: FeatureAction) -> Effect<FeatureAction> {
    let failure = reducerError(error, feature: feature, action: action)
    lastReducerError = failure
    return .failure(failure)
  }

  func reducerError(_ error: any Error, feature: FeatureDefinition, action: FeatureAction) -> ReluaError {
    switch error {
    case let error as ReluaError: return error
    case LuaError.runtime(let message, let traceback):
      return .reducer(feature: feature.name, action: action.description, message: message, traceback: traceback)
    case let error as LuaError:
      return .reducer(feature: feature.name, action: action.description, message: error.message, traceback: nil)
    default:
      return .reducer(feature: feature.name, action: action.description, message: "\(error)", traceback: nil)
    }
  }

  // MARK: Lenses

  /// A derived child's state: `get(state)` on a read-only look at the parent.
  func lensGet(_ get: LuaFunction, _ parent: Value, key: String) -> Value {
    var parent = parent
    do {
      return try views.withViews(of: &parent) { session in
        guard let result = try lua.call(get, session.view()).first else { return .null }
        return try value(from: result)
      }
    } catch {
      RuntimeWarnings.report("The lens '\(key)' failed to get its state: \(error)")
      return .null
    }
  }

  /// Writes a derived child's state back: `set(state, child)`.
  func lensSet(_ set: LuaFunction, _ parent: inout Value, _ child: Value, key: String) {
    do {
      try views.withViews(of: &parent, anchor: { anchor(parentOfLens: key) }) { session in
        _ = try lua.call(set, session.view(), lua.value(child))
      }
    } catch {
      RuntimeWarnings.report("The lens '\(key)' failed to set its state: \(error)")
    }
  }

  // MARK: Views

  /// The text `view(state)` renders for a feature, or nil when it has no view.
  func render(_ feature: FeatureDefinition, _ state: Value) throws -> String? {
    guard let view = feature.viewFunction else { return nil }
    let result = try lua.call(view, lua.value(state))
    guard let first = result.first else { return nil }
    if let text = first.stringValue { return text }
    throw ReluaError.usage("\(feature.name).view must return text, got \(first.type)")
  }
}

/// `file:line` of the Lua function `level` levels up from the running C function.
func luaLocation(_ L: OpaquePointer, level: Int32) -> String? {
  var record = lua_Debug()
  guard lua_getstack(L, level, &record) != 0, lua_getinfo(L, "Sl", &record) != 0, record.currentline > 0 else {
    return nil
  }
  let source = withUnsafeBytes(of: &record.short_src) { bytes in
    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
  }
  return "\(source):\(record.currentline)"
}

import Foundation

extension ReluaHost {
  /// The first result of a call (nil when there is none or it is nil).
  static func firstResult(_ lua: LuaState, _ L: OpaquePointer, _ first: Int32, _ count: Int32) -> LuaValue? {
    guard count > 0, lua_type(L, first) != LUA_TNIL else { return nil }
    return lua.value(at: first, in: L)
  }
}
