import Composable
import Foundation
import Lua

/// The feature host of one Lua state: `require "relua"`, the compiled features, the state views
/// Lua reducers write through, the dependencies Lua sees, and the calls into Lua handlers.
/// One per `LuaState` (`ReluaHost.install(in:)`), on the main actor with the state.
@MainActor
public final class ReluaHost {
  package let lua: LuaState
  let views: StateViews
  package let tags = ReluaTags()
  let driver: LuaCoroutineDriver
  /// The open `relua.taskGroup`s of its effects.
  let effectGroups = LuaEffectGroups()
  private(set) var compiler: FeatureCompiler!
  /// The `relua` module table.
  package private(set) var module: LuaTable!
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
  /// The rows `relua.ui.forEach` nodes drew, reused while their elements are unchanged.
  package let viewRowCache = ReluaViewRowCache()
  /// The task handle of every send that started no effect: one userdata for all of them.
  private(set) var noEffectsTask: LuaUserdata!
  private(set) var storeTaskType: LuaUserdataType<LuaStoreTaskObject>!
  /// The state this host holds for scripts, charged against the memory limit.
  private(set) var stateMemory: StateMemory!
  /// The error of the last Lua reducer that raised (the test store reports it as the failure).
  var lastReducerError: ReluaError?
  /// What only tests use (see `ReluaHostTestState`); nil until a test store, the test runner or a
  /// test helper first needs it.
  package private(set) var testStateIfMade: ReluaHostTestState?

  /// What only tests use, made on first use.
  package var testState: ReluaHostTestState {
    if let testStateIfMade { return testStateIfMade }
    let made = ReluaHostTestState()
    testStateIfMade = made
    return made
  }

  /// Lets go of the test stores made in this state (when it closes).
  private func forgetTestStores() { testStateIfMade?.stores.removeAll() }

  /// The registry of the live stores' shared values (see `liveShares`).
  var liveSharesIfMade: SharedRegistry?
  @exclusivity(unchecked) var sharedReadBarrierIfMade: SharedReadBarrier? {
    didSet { sharedReadBarrierUnretained = sharedReadBarrierIfMade.map { Unmanaged.passUnretained($0) } }
  }
  /// The same barrier, not retained (`sharedReadBarrierIfMade` keeps it): what a send's hot path
  /// reads, with no retain and release around each use.
  @exclusivity(unchecked) private(set) var sharedReadBarrierUnretained: Unmanaged<SharedReadBarrier>?
  /// Kinds of shared key registered from Swift (`ReluaRuntime.registerSharedKey`).
  package var sharedKeyKinds: [String: @Sendable (ReluaSharedKeyRequest) throws -> any ReluaSharedKey] = [:]
  /// The app whose `appStorage` file live stores use (a script's name, by default "relua").
  package var sharedAppName = "relua"

  /// The store and action being processed right now (see `StateAnchors`). Written by the root
  /// reducers, which stores run on the main actor; `nonisolated(unsafe)` spares the per-action
  /// executor check of `MainActor.assumeIsolated`.
  nonisolated(unsafe) let currentSend = CurrentSend()

  /// The host of `lua`, installing `require "relua"` (and a global `relua`) on first use. The state
  /// keeps it (`LuaState.appData`) until it closes.
  @discardableResult
  package static func install(in lua: LuaState) throws -> ReluaHost {
    if let host = lua.appData(ReluaHost.self) { return host }
    let host = try ReluaHost(lua: lua)
    // The host keeps its state (`lua` is strong) and the state its host: the cycle ends when the
    // state closes and drops its app data. Its test stores go then too: a test run's last state
    // must not keep its stores alive after the run.
    lua.setAppData(host)
    lua.onClose { [unowned host] in
      MainActor.assumeIsolated {
        host.forgetTestStores()
        // Saves still waiting for their quiet spell run now: closing loses no change.
        host.liveSharesIfMade?.flush()
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
    compiler = FeatureCompiler(host: self, tags: tags) { [unowned self] name in self.swiftFeatures[name]?.reducer }
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
    try installSharedPrimitives(into: primitives)
    try installGroupPrimitives(into: primitives)
    let prelude = try lua.load(ReluaPrelude.source, name: ReluaPrelude.chunkName)
    guard let module = try lua.call(prelude, .table(primitives)).first?.tableValue else {
      throw ReluaError.usage("the relua prelude did not return its module")
    }
    self.module = module
    try installViewDSL(into: module)
    try module.rawSet("dependency", .function(lua.function { [unowned self] stack in
      [try self.declareDependency(stack)]
    }))
    try module.rawSet("deps", .table(deps))
    for dependency in Self.everyStateDependencies { try register(dependency) }
    for feature in Self.everyStateSwiftFeatures { register(feature) }
    sharedKeyKinds = Self.everyStateSharedKeyKinds
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

  /// Stores made in this state, without keeping them alive (see ReluaHost+LiveStores).
  var stores: [ObjectIdentifier: Unmanaged<Store<Value, FeatureAction>>] = [:]

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
