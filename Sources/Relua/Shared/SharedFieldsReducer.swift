import Composable

/// Wraps a feature's own logic (its handlers, a `relua.reduce`, an `onChange`, a Swift
/// feature's reducer) when the feature holds shared values: its holders take their shares'
/// values first, and what it wrote into them goes to the shares after (see `SharedSync`).
struct SharedFieldsReducer: Reducer {
  typealias State = Value
  typealias Action = FeatureAction

  /// The logic it wraps: a Lua leaf (called directly, on the main actor: no boxed call and no
  /// second hop per send), or any other reducer.
  private enum Base {
    case leaf(LuaLeafReducer)
    case other(AnyFeatureReducer)
  }

  private let base: Base
  let feature: FeatureDefinition
  let host: ReluaHost

  init(base: AnyFeatureReducer, feature: FeatureDefinition, host: ReluaHost) {
    self.base = .other(base)
    self.feature = feature
    self.host = host
  }

  init(leaf: LuaLeafReducer, feature: FeatureDefinition, host: ReluaHost) {
    base = .leaf(leaf)
    self.feature = feature
    self.host = host
  }

  func reduce(into state: inout Value, action: FeatureAction) -> Effect<FeatureAction> {
    // On the main actor, where stores run reducers (one hop for the whole call, not one per step).
    withUnsafeMutablePointer(to: &state) { state in
      callOnMainActor(
        { @MainActor (call: Call) in call.reducer.reduceOnMainActor(&call.state.pointee, call.action) },
        Call(reducer: self, state: state, action: action))
    }
  }

  private struct Call {
    let reducer: SharedFieldsReducer
    let state: UnsafeMutablePointer<Value>
    let action: FeatureAction
  }

  @MainActor
  private func reduceOnMainActor(_ state: inout Value, _ action: FeatureAction) -> Effect<FeatureAction> {
    // The running send's registry (no task-local lookup), else the store's dependencies'.
    guard let registry = host.sharedReadBarrierIfMade?.send?.shares ?? DependencyValues.current[SharedRegistryKey.self] else {
      return reduceBase(&state, action)
    }
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

  @MainActor @inline(__always)
  private func reduceBase(_ state: inout Value, _ action: FeatureAction) -> Effect<FeatureAction> {
    switch base {
    case .leaf(let leaf): return leaf.reduceOnMainActor(&state, action)
    case .other(let other): return other.reduce(into: &state, action: action)
    }
  }

  func navigationNodes(in state: Value) -> [NavigationNode] {
    switch base {
    case .leaf(let leaf): return leaf.navigationNodes(in: state)
    case .other(let other): return other.navigationNodes(in: state)
    }
  }
}
