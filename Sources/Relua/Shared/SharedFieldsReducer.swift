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
    guard let registry = DependencyValues.current[SharedRegistryKey.self] else { return base.reduce(into: &state, action: action) }
    nonisolated(unsafe) let host = host
    nonisolated(unsafe) let feature = feature
    nonisolated(unsafe) var failure: Effect<FeatureAction>?
    nonisolated(unsafe) var held: [Value] = []
    withUnsafeMutablePointer(to: &state) { state in
      nonisolated(unsafe) let state = state
      MainActor.assumeIsolated {
        do {
          held = try SharedSync.pull(feature, &state.pointee, registry: registry, path: [], log: { _, key, old in
            host.recordEngineWrite(ofField: key, old: old, forLeafAction: action)
          })
        } catch {
          failure = host.reducerFailure(error, feature: feature, action: action)
        }
      }
    }
    if let failure { return failure }
    let effect = base.reduce(into: &state, action: action)
    nonisolated(unsafe) let after = state
    MainActor.assumeIsolated {
      do {
        try SharedSync.push(feature, after, held: held, registry: registry)
      } catch {
        failure = host.reducerFailure(error, feature: feature, action: action)
      }
    }
    return failure ?? effect
  }

  func navigationNodes(in state: Value) -> [NavigationNode] { base.navigationNodes(in: state) }
}
