import Composable
import Foundation
import Lua

/// A store of a Lua feature, as Lua sees it (`relua.Store(Feature, options)`):
/// `store:send(action[, payload])`, `store:state([path])`, `store:screens()`, `store:view()`,
/// `store:observe(path or function, onChange)`, `store:json()`, `store:warnings()`, `store:wait()`.
/// A send is a transaction: a raising reducer restores the state and raises at the sender's line;
/// it returns a task handle to the effects it started (`LuaStoreTaskObject`).
@MainActor
package final class LuaStoreObject {
  let host: ReluaHost
  /// The host's views (it keeps them as long as it lives, and it outlives its stores): read on
  /// every `store:send` (a reducer running?), so held without a retain.
  unowned(unsafe) let views: StateViews
  package let feature: FeatureDefinition
  package let store: Store<Value, FeatureAction>
  package let resolver: ActionResolver
  /// The registry reference of the shared handle a send that started no effect returns.
  private let noEffectsTask: Int64
  private var tokens: [ObservationToken] = []

  package init(host: ReluaHost, feature: FeatureDefinition, state: Value? = nil, dependencies: DependencyValues) throws {
    self.host = host
    self.feature = feature
    resolver = host.resolver(for: feature)
    views = host.views
    noEffectsTask = Int64(host.noEffectsTask.registryReference)
    var dependencies = dependencies
    let shares = dependencies[SharedRegistryKey.self] ?? host.liveShares
    dependencies[SharedRegistryKey.self] = shares
    var initial = try state.map { state in
      try FeatureStateCheck.check(state, against: feature)
      return FeatureStateShape.conform(state, to: feature)
    }
      ?? host.initialState(of: feature, dependencies: dependencies)
    try DependencyValues.withValues(dependencies) { try host.prepareShares(&initial, of: feature, registry: shares) }
    dependencies.withOwnNotifications()
    let (store, transaction) = host.rootStore(of: feature, initialState: initial, dependencies: dependencies)
    self.store = store
    host.track(store)
    // What the warnings of a send refused or queued name: the script line sending.
    store.senderPlace = { [weak host] in host.flatMap { (try? $0.lua.currentRawStack())?.scriptLocation } }
    if feature.reachesShares {
      let link = SharedStoreLink(store: store, feature: feature, transaction: transaction)
      shares.link(link)
      sharesLink = (shares, link.id)
    }
  }

  /// Puts back a state (`:undo`, `:redo`, `:load`, an inspector's jump) — not an action: no
  /// reducer runs. Its shared fields become the shares' values (saved, and copied into the other
  /// stores sharing them), as a state put back must hold what it held.
  package func restore(_ state: Value) {
    guard let (shares, _) = sharesLink else { return store.restore(state) }
    var state = state
    do {
      try DependencyValues.withValues(store.dependencies) {
        shares.beginSend()
        try SharedSync.adoptTree(feature, state, registry: shares)
        try SharedSync.syncTree(feature, &state, registry: shares, log: nil)
      }
      store.restore(state)
      shares.commitSend(sender: ObjectIdentifier(store))
    } catch {
      shares.rollBackSend()
      shares.warn("\(error)")
      store.restore(state)
    }
  }

  /// Where the state holds shared values, and which keys (`state.items`,
  /// `fileStorage("items.json")`): what the REPL's `:state` and the inspector mark as shared.
  package var sharedPlaces: [(place: String, key: String)] {
    guard feature.reachesShares else { return [] }
    return SharedSync.places(feature, in: store.state).map {
      (describePath($0.path).replacingOccurrences(of: "[id = ", with: "[id="), $0.key.description)
    }
  }

  /// The registry this store's holders follow, while it lives.
  private var sharesLink: (SharedRegistry, ObjectIdentifier)?

  /// `store:post(name[, value])`: posts to the store's notifications (`deps.notifications(name)`);
  /// returns how many loops it reached.
  @discardableResult
  package func post(_ name: String, _ value: Value = .null) -> Int {
    store.dependencies.notifications.post(name, value)
  }

  isolated deinit {
    host.untrack(store)
    if let (shares, id) = sharesLink { shares.unlink(id) }
  }

  /// `relua.Store(Feature, { state = table, json = text, deps = { … } })`.
  static func make(host: ReluaHost, stack: LuaStack) throws -> LuaValue {
    let feature = try host.feature(stack.value(at: 1), what: "relua.Store(Feature, options)")
    let options = stack.isNil(at: 2) ? nil : try stack.table(at: 2)
    var dependencies = DependencyValues.fallback
    try DependencyOptions(options?["deps"].tableValue, host: host).prepare(&dependencies)
    var state: Value?
    if let options {
      let given = try options["state"]
      if let function = given.functionValue {
        // `state = function(deps) … end`: built with the store's dependencies.
        state = try host.givenState(calling: function, of: feature, dependencies: dependencies)
      } else if !given.isNil {
        state = try host.value(from: given)
      }
      if let json = try options["json"].stringValue { state = try Value(json: json) }
    }
    let object = try LuaStoreObject(host: host, feature: feature, state: state, dependencies: dependencies)
    object.store.limits = try SendLimits(luaOptions: options)
    // `presented = true`: the root runs as a presented screen, its dismiss() dismisses the store.
    if let presented = try options?["presented"], !presented.isNil { object.store.dismissesItself = presented.isTruthy }
    return .userdata(try host.lua.userdata(object))
  }

  /// Sends an action by name; throws the reducer's error (state restored) or a bad-action error.
  @discardableResult
  package func send(_ name: String, payload: Value = .null) throws -> StoreTask {
    try send(resolver.resolve(name, payload: payload))
  }

  /// Inlined into `store:send`'s path (with the store's `sendChecked`).
  @inline(__always) @discardableResult
  package func send(_ action: FeatureAction) throws -> StoreTask {
    do {
      return try store.sendChecked(action)
    } catch let failure as ReducerFailure {
      throw failure.error
    }
  }

  /// `store:send(action[, payload])` from Lua: the action is the Lua string at 2. Inlined into
  /// `sendIsolated` (one call level less per send).
  @inline(__always)
  private func send(fromLua L: LuaRawStack) throws -> Int32 {
    if L.top < 3, resolver.isRepeatedAction(at: 2, in: L) {
      // The resolver lends its action, sent in place (no copy of it, see `sendInPlace`).
      resolver.lendingLastAction &+= 1
      defer { resolver.lendingLastAction &-= 1 }
      return push(try resolver.lastAction.sendInPlace(to: self), onto: L)
    }
    return try sendResolving(fromLua: L)
  }

  /// Pushes the send's task handle: the shared one when it started no effect (no allocation).
  @inline(__always)
  func push(_ task: StoreTask, onto L: LuaRawStack) -> Int32 {
    if !task.startedEffects {
      L.pushRegistryValue(noEffectsTask)
      return 1
    }
    return pushNew(task, onto: L)
  }

  @inline(never)
  private func pushNew(_ task: StoreTask, onto L: LuaRawStack) -> Int32 {
    host.storeTaskType.push(LuaStoreTaskObject(task), onto: L.rawState)
    return 1
  }

  /// Any other send from Lua: the name checked and resolved, the payload read. Out of line, so
  /// that the resend above keeps a small frame (its error messages and payload reading are not
  /// spilled around it).
  @inline(never)
  func sendResolving(fromLua L: LuaRawStack) throws -> Int32 {
    guard L.type(at: 2) == .string else {
      throw LuaError.argument(
        position: 2, message: "action name expected (a string such as 'increment' or 'rows[id=1].toggle'), got \(L.typeName(at: 2))")
    }
    let payload = L.top >= 3 ? try host.views.read(at: 3, in: L, root: host.views.rootName, path: [], hint: nil) : .null
    return push(try send(resolver.resolve(luaStringAt: 2, in: L, payload: payload)), onto: L)
  }

  /// Returns a status for the trampoline (errors are raised after Swift returned). The store
  /// comes as a guaranteed argument: not retained here (an `Unmanaged` taken here would be, and
  /// a closure formed here to avoid that gets an executor check).
  fileprivate static func sendIsolated(_ L: LuaRawStack, _ store: LuaStoreObject) -> Int32 {
    do {
      // (Out of line: a send from inside another store's reducer.)
      if store.views.isActive && !store.store.isSending { return try store.sendFromAnotherStoresReducer(fromLua: L) }
      return try store.send(fromLua: L)
    } catch {
      return store.host.lua.raiseStatus(error, on: L.rawState)
    }
  }

  package var screens: [FeatureScreen] { FeatureScreens.screens(of: feature, state: store.state) }

  static func register(in host: ReluaHost, scope: LuaValue) throws {
    let lua = host.lua
    let type = try lua.register(
      type: LuaStoreObject.self, name: "Store",
      methods: [
        "state": { store, stack in
          let path = stack.isNil(at: 2) ? "" : try stack.string(at: 2)
          return [try lua.value(try store.store.state.at(path: path))]
        },
        "screens": { store, stack in
          [.table(try lua.table(array: store.screens.map { screen in
            .table(try lua.table(fields: [
              "feature": .text(screen.feature.name), "place": .text(screen.place),
              "prefix": .text(screen.actionPrefix), "state": try lua.value(screen.state),
            ]))
          }))]
        },
        "view": { store, _ in
          let screens = store.screens
          guard let top = screens.last else { return [] }
          return [try host.screenText(top, in: screens).map(LuaValue.text) ?? .nil]
        },
        "json": { store, _ in [.text(try store.store.state.json(pretty: true))] },
        "viewJSON": { store, _ in [try host.topViewJSON(of: store.feature, state: store.store.state).map(LuaValue.text) ?? .nil] },
        // store:isDismissed(): a method, not a field (a field needs a function __index, which
        // every `store:send` would pay for).
        "isDismissed": { store, _ in [.boolean(store.store.isDismissed)] },
        "post": { store, stack in
          let name = try stack.string(at: 2)
          let value = stack.isNil(at: 3) ? Value.null : try host.value(from: stack.value(at: 3))
          return [.integer(Int64(store.post(name, value)))]
        },
        "warnings": { store, _ in
          [.table(try lua.table(array: store.store.warnings.map { .text($0.message) }))]
        },
        "observe": { store, stack in
          let onChange = try stack.function(at: 3)
          let token: ObservationToken
          if let path = try? stack.string(at: 2) {
            token = store.store.observe({ (try? $0.at(path: path)) ?? .null }) { value in
              _ = try? lua.call(onChange, lua.value(value))
            }
          } else {
            let projection = try stack.function(at: 2)
            token = store.store.observe({ state -> Value in
              (try? lua.call(projection, lua.value(state)).first.map { try host.value(from: $0) }) ?? .null
            }) { value in _ = try? lua.call(onChange, lua.value(value)) }
          }
          store.tokens.append(token)
          return []
        },
      ])
    // `send` is the hot path of every script: a C-convention function (no closure, no Swift string).
    try type.methods.rawSet("send", .function(lua.hotCFunction(luaStoreSend, context: type)))
    try type.methods.rawSet(.text("scope"), scope)
    try type.methods.rawSet(.text("wait"), .function(host.driver.awaitable(name: "store:wait", in: lua) { arguments in
      guard let store = try arguments.first?.userdataValue?.object(as: LuaStoreObject.self) else {
        throw LuaError.argument(position: 1, message: "Store expected (call it as store:wait())")
      }
      await store.store.waitForEffects()
      return []
    }))
  }
}

extension FeatureAction {
  /// `store.send(self)` for an action lent by a class property, sent in place. A mutating method
  /// (it mutates nothing) because only an inout access passes the property without a copy: as an
  /// argument or as a non-mutating method's `self`, the action is copied through its value
  /// witness (its steps retained, then destroyed: ≈ 80 instructions). The lender makes sure
  /// nothing replaces the property during the send (`ActionResolver.lendingLastAction`).
  @inline(__always)
  @MainActor fileprivate mutating func sendInPlace(to store: LuaStoreObject) throws -> StoreTask { try store.send(self) }
}

extension Value {
  /// The value at a state path (`counter.count`, `results[1].secret` with positions 1-based as in
  /// Lua, `rows[id=42].name`; see `ActionResolver.parseStatePath`).
  package func at(path: String) throws -> Value {
    if path.isEmpty { return self }
    return self[path: try ActionResolver.parseStatePath(path)]
  }
}

extension LuaUserdataType<LuaStoreObject> {
  /// `store:send` called on something that is not a store.
  fileprivate func notAStore(_ L: OpaquePointer) -> Int32 {
    (try? metatable.state())?.raiseStatus(
      LuaError.argument(position: 1, message: "Store expected (call it as store:send(action))"), on: L) ?? 0
  }
}

/// `store:send` as Lua calls it (the C function's context is the store type). A nonisolated
/// function, so that no executor check runs on every send (a closure formed on the main actor gets
/// one: about a twentieth of a send); `callOnMainActor` keeps that check in debug builds. Neither
/// the type nor the store is retained here: Lua holds both while the call runs.
private func luaStoreSend(_ L: OpaquePointer?, _ context: UnsafeMutableRawPointer?) -> Int32 {
  let type = Unmanaged<LuaUserdataType<LuaStoreObject>>.fromOpaque(context!)
  guard let store = type._withUnsafeGuaranteedRef({ $0.unmanagedReceiver(at: 1, in: L!) }) else {
    return type.takeUnretainedValue().notAStore(L!)
  }
  return store._withUnsafeGuaranteedRef { callOnMainActor(LuaStoreObject.sendIsolated, LuaRawStack(L!), $0) }
}
