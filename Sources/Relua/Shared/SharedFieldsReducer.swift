import Composable

/// Wraps a feature's own logic (its handlers, a `relua.reduce`, an `onChange`, a Swift
/// feature's reducer) when the feature holds shared values: its holders take their shares'
/// values first, and what it wrote into them goes to the shares after (see `SharedSync`).
struct SharedFieldsReducer: Reducer {
  typealias State = Value
  typealias Action = FeatureAction

  let base: AnyFeatureReducer
  let feature: FeatureDefinition
  let host: ReluaHost

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
      return base.reduce(into: &state, action: action)
    }
    let held: SharedSync.Held
    do {
      held = try SharedSync.pull(feature, &state, registry: registry) { key, old in
        host.recordEngineWrite(ofField: key, old: old, forLeafAction: action)
      }
    } catch {
      return host.reducerFailure(error, feature: feature, action: action)
    }
    let effect = base.reduce(into: &state, action: action)
    do {
      try SharedSync.push(feature, state, held: held, registry: registry)
    } catch {
      return host.reducerFailure(error, feature: feature, action: action)
    }
    return effect
  }

  func navigationNodes(in state: Value) -> [NavigationNode] { base.navigationNodes(in: state) }
}
