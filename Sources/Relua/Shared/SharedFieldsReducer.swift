import Composable

/// Wraps a feature's own logic (its handlers, a `relua.reduce`, an `onChange`, a Swift
/// feature's reducer) when the feature holds shared values: its holders take their shares'
/// values first, and what it wrote into them goes to the shares after (see `SharedSync`).
///
/// The work is a class's (`SharedFields`), reached unretained: a send copies a reducer into its
/// call, and a struct holding the leaf, the feature and the host retained and released each of
/// them per send (measured: 7 retains and 11 releases more than a plain send).
struct SharedFieldsReducer: Reducer {
  typealias State = Value
  typealias Action = FeatureAction

  private let fields: SharedFields

  /// Around a Lua leaf (called directly, on the main actor: no boxed call and no second hop).
  @MainActor
  init(leaf: LuaLeafReducer, feature: FeatureDefinition, host: ReluaHost) {
    fields = SharedLeafFields(leaf: leaf, feature: feature, host: host)
  }

  /// Around any other reducer.
  @MainActor
  init(base: AnyFeatureReducer, feature: FeatureDefinition, host: ReluaHost) {
    fields = SharedOtherFields(base: base, feature: feature, host: host)
  }

  func reduce(into state: inout Value, action: FeatureAction) -> Effect<FeatureAction> {
    // On the main actor, where stores run reducers (one hop for the whole call, not one per step).
    withUnsafeMutablePointer(to: &state) { state in
      callOnMainActor(
        { @MainActor (call: Call) in withUnretained(call.fields) { $0.reduce(&call.state.pointee, call.action) } },
        Call(fields: Unmanaged.passUnretained(fields), state: state, action: action))
    }
  }

  private struct Call {
    let fields: Unmanaged<SharedFields>
    let state: UnsafeMutablePointer<Value>
    let action: FeatureAction
  }

  func navigationNodes(in state: Value) -> [NavigationNode] { fields.navigationNodes(in: state) }
}

/// What `SharedFieldsReducer` does around the logic it wraps: `SharedSync.pull`, the logic
/// (`reduceBase`, a subclass's), `SharedSync.push`.
@MainActor
class SharedFields {
  let feature: FeatureDefinition
  let host: ReluaHost
  /// Whether the feature holds exactly one share, all of it, writable (the commonest:
  /// `shared = { items = Items }`), synced by the short path at `soleField`.
  private let hasSoleField: Bool
  private let soleField: SharedHolderField

  init(feature: FeatureDefinition, host: ReluaHost) {
    self.feature = feature
    self.host = host
    let bindings = feature.sharedBindings
    hasSoleField = bindings.count == 1 && bindings[0].isWholeAndWritable
    soleField = SharedHolderField(hasSoleField ? bindings[0] : nil)
  }

  /// The wrapped logic.
  func reduceBase(_ state: inout Value, _ action: FeatureAction) -> Effect<FeatureAction> { .none }

  nonisolated func navigationNodes(in state: Value) -> [NavigationNode] { [] }

  @inline(__always)
  final func reduce(_ state: inout Value, _ action: FeatureAction) -> Effect<FeatureAction> {
    // The running send's registry, not retained (no task-local lookup), else the store's
    // dependencies'.
    if let barrier = host.sharedReadBarrierUnretained, let running = withUnretained(barrier, { $0.runningShares }) {
      return withUnretained(running) { reduce(&state, action, registry: $0) }
    }
    guard let registry = DependencyValues.current[SharedRegistryKey.self] else { return reduceBase(&state, action) }
    return reduce(&state, action, registry: registry)
  }

  @inline(__always)
  private final func reduce(_ state: inout Value, _ action: FeatureAction, registry: SharedRegistry) -> Effect<FeatureAction> {
    if hasSoleField { return reduceSole(&state, action, registry: registry) }
    let held: SharedSync.Held
    do {
      held = try SharedSync.pull(feature, &state, registry: registry) { key, old in
        host.recordEngineWrite(ofField: key, old: old, forLeafAction: action)
      }
    } catch {
      return host.reducerFailure(error, feature: feature, action: action)
    }
    let effect = reduceBase(&state, action)
    do {
      try SharedSync.push(feature, state, held: held, registry: registry)
    } catch {
      return host.reducerFailure(error, feature: feature, action: action)
    }
    return effect
  }

  /// The same steps for a feature whose one binding is the whole value, writable: no array, no
  /// closure context and no retain of the share (it lives as long as the registry).
  private final func reduceSole(_ state: inout Value, _ action: FeatureAction, registry: SharedRegistry) -> Effect<FeatureAction> {
    guard case .record = state else { return reduceBase(&state, action) }
    let share: Unmanaged<Share>
    do {
      share = try registry.soleShare(of: feature)
    } catch {
      return host.reducerFailure(error, feature: feature, action: action)
    }
    // Pull: the holder takes the share's value.
    var held = soleField.holder(in: state)
    withUnretained(share) { share in
      if !share.isSettled { registry.settle(share, withDefault: held) }
      guard let current = share.value, !held.isIdentical(to: current) else { return }
      host.recordEngineWrite(ofField: soleField.name, old: held, forLeafAction: action)
      state[key: soleField.name] = current
      held = current
    }
    let effect = reduceBase(&state, action)
    // Push: a holder the logic changed writes the share; one it did not touch writes nothing.
    let holder = soleField.holder(in: state)
    if holder.isIdentical(to: held) || holder == held { return effect }
    withUnretained(share) { share in
      if let current = share.value, holder == current { return }
      if share.value == nil, holder.isNull { return }
      registry.write(share, value: holder)
    }
    return effect
  }
}

/// `SharedFields` around a Lua leaf, called in place.
private final class SharedLeafFields: SharedFields {
  let leaf: LuaLeafReducer

  init(leaf: LuaLeafReducer, feature: FeatureDefinition, host: ReluaHost) {
    self.leaf = leaf
    super.init(feature: feature, host: host)
  }

  override func reduceBase(_ state: inout Value, _ action: FeatureAction) -> Effect<FeatureAction> {
    leaf.reduceOnMainActor(&state, action)
  }

  nonisolated override func navigationNodes(in state: Value) -> [NavigationNode] { leaf.navigationNodes(in: state) }
}

/// `SharedFields` around any other reducer (a Swift feature's, an `onChange`).
private final class SharedOtherFields: SharedFields {
  nonisolated(unsafe) let base: AnyFeatureReducer  // (read off the main actor by `navigationNodes` only, as the struct wrapping it was)

  init(base: AnyFeatureReducer, feature: FeatureDefinition, host: ReluaHost) {
    self.base = base
    super.init(feature: feature, host: host)
  }

  override func reduceBase(_ state: inout Value, _ action: FeatureAction) -> Effect<FeatureAction> {
    base.reduce(into: &state, action: action)
  }

  nonisolated override func navigationNodes(in state: Value) -> [NavigationNode] { base.navigationNodes(in: state) }
}
