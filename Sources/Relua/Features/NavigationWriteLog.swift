import Composable

/// Logs, for the send's transaction, the writes the engine itself makes to a destination or a
/// stack — clearing a dismissed destination or an alert after its button, popping or pushing
/// stack elements — which happen outside the views and so outside their undo log. Without it a
/// send that dismissed an alert and then failed was rolled back everywhere but there: "the state
/// is unchanged" said the message, and the alert was gone.
///
/// Before such an action reaches the composition node, the field's whole value is logged at the
/// parent's place; a rollback restores it last (the log undoes newest first), whatever happened
/// inside. Child actions into a destination that is not ephemeral make no engine write and log
/// nothing (a logged value shares the field's storage, so the next write into it would copy it).
struct NavigationWriteLog: Reducer {
  typealias State = Value
  typealias Action = FeatureAction

  let base: AnyFeatureReducer
  let key: String
  let host: ReluaHost
  /// Whether the engine may write the field for this action (its steps after `key`) given the
  /// field's value.
  let engineMayWrite: (FeatureAction, Value) -> Bool

  func reduce(into state: inout Value, action: FeatureAction) -> Effect<FeatureAction> {
    if action.head == key {
      let field = state[key: key]
      if engineMayWrite(action.tail, field) {
        // (Reducers run on the main actor, where the store is; this checks it in debug builds.)
        nonisolated(unsafe) let host = host
        let key = key
        MainActor.assumeIsolated { host.recordEngineWrite(ofField: key, old: field, forLeafAction: action) }
      }
    }
    return base.reduce(into: &state, action: action)
  }

  func navigationNodes(in state: Value) -> [NavigationNode] { base.navigationNodes(in: state) }
}
