import Composable
import Foundation
import Lua

/// The feature host of one Lua state: `require "relua"`, the compiled features, the state views
/// Lua reducers write through, the dependencies Lua sees, and the calls into Lua handlers.
/// One per `LuaState` (`ReluaHost.install(in:)`), on the main actor with the state.
@MainActor
public final class ReluaHost {
  public let lua: LuaState
  let views: StateViews
  package let tags = ReluaTags()
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
  private(set) var depsReference: Int64 = 0
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
  /// Whether this state runs tests (set by `LuaTestRunner`): only then do the helpers under
  /// `relua.testing` run.
  var runsTests = false
  /// The `relua.testing` helpers as Lua functions, made on first use.
  var testHelperFunctions: [String: LuaFunction] = [:]

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
    // Forgotten when the state closes, with what it holds (its test stores): kept until the next
    // install, a test run's last state kept its stores alive after the run.
    lua.onClose {
      MainActor.assumeIsolated {
        guard let entry = hosts[key], entry.state.map({ $0.isClosed }) ?? true else { return }
        hosts[key] = nil
        entry.host.testStores.removeAll()
      }
    }
    return host
  }

  private init(lua: LuaState) throws {
    self.lua = lua
    // Every reducer call makes a view (a userdata owning a Swift object the collector cannot see):
    // generational collection frees them young (measured: 1M sends, +60 MB resident → flat).
    try lua.collectGenerationally()
    views = try StateViews(lua: lua)
    driver = try LuaCoroutineDriver.of(lua)
    compiler = FeatureCompiler(tags: tags) { [unowned self] name in self.swiftFeatures[name]?.reducer }
    stateMemory = StateMemory(lua: lua, views: views) { [unowned self] in self.heldStates() }
    views.willGrow = { [unowned self] bytes in try self.stateMemory.willGrow(by: bytes) }
    named = try NamedDependencies(host: self)
    deps = try LuaDependencies.makeTable(host: self)
    depsReference = Int64(deps.registryReference)
    let primitives = try lua.table()
    try primitives.rawSet("where", .function(lua.rawFunction { stack in
      let level = try stack.int(at: 1, default: 1)
      stack.push(stack.raw.location(ofLevel: Int32(level)) ?? "?")
      return .values(1)
    }))
    // `file:line` where the function at 1 was defined ("?" for a C function): where a
    // tail-called constructor (`return Effect.run(function …)`) can no longer see its caller.
    try primitives.rawSet("defined", .function(lua.rawFunction { stack in
      let L = stack.raw
      guard L.type(at: 1) == .function else { throw LuaError.argument(position: 1, message: "function expected") }
      L.pushCopy(of: 1)
      stack.push(L.definitionOfFunctionOnTop() ?? "?")
      return .values(1)
    }))
    try primitives.rawSet("copy", .function(views.copyFunction))
    try primitives.rawSet("deps", .function(lua.rawFunction { [unowned self] stack in
      try self.deps.push(onto: stack.raw)
      return .values(1)
    }))
    // The next stack element id of the store reducing now, at least the given one (see
    // `StackElementIDGenerator`).
    try primitives.rawSet("nextStackID", .function(lua.function { stack in
      let minimum = try stack.int(at: 1)
      return [.integer(Int64(DependencyValues.current.stackElementID.next(atLeast: minimum)))]
    }))
    try primitives.rawSet("markIdentified", .function(lua.rawFunction { stack in
      let L = stack.raw
      guard L.type(at: 1) == .table else { throw LuaError.argument(position: 1, message: "table expected") }
      L.setTop(1)
      IdentifiedMarker.mark(tableAtTopOf: L)
      return .values(1)
    }))
    try primitives.rawSet("register", .function(lua.function { [unowned self] stack in
      try self.tags.register(stack.values)
      return []
    }))
    // `relua.testing.<name>`: a registered test helper (`ReluaHost.registerTestHelper`).
    try primitives.rawSet("testHelper", .function(lua.function { [unowned self] stack in
      [try self.testHelperFunction(try stack.string(at: 1))]
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
  package func feature(_ value: LuaValue, what: String) throws -> FeatureDefinition {
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
  package func value(from luaValue: LuaValue, hint: Value? = nil) throws -> Value {
    try views.value(from: luaValue, hint: hint)
  }
}
