import Composable

/// The values a feature's `relua.onChange` entries watch, as they were before the feature handled
/// the action being reduced: one row per feature invocation in progress (a recursive feature's
/// child runs inside its parent's invocation).
final class OnChangeBaseline: @unchecked Sendable {  // used on the main actor only
  var rows: [[Value]] = []
}

/// Wraps a feature that has `relua.onChange` entries: notes what they watch before anything of
/// the feature runs, so that each entry compares with the state the action found.
struct OnChangeSnapshot: Reducer {
  typealias State = Value
  typealias Action = FeatureAction

  let base: AnyFeatureReducer
  let entries: [FeatureOnChange]
  let feature: FeatureDefinition
  let host: ReluaHost
  let baseline: OnChangeBaseline

  func reduce(into state: inout Value, action: FeatureAction) -> Effect<FeatureAction> {
    let watched = callOnMainActor({ @MainActor (reducer: Self, state: Value) -> Result<[Value], any Error> in
      Result { try reducer.entries.map { try reducer.host.watched($0.watched, in: state) } }
    }, self, state)
    switch watched {
    case .failure(let error):
      return callOnMainActor({ @MainActor (reducer: Self, call: (any Error, FeatureAction)) in
        reducer.host.reducerFailure(call.0, feature: reducer.feature, action: call.1)
      }, self, (error, action))
    case .success(let row):
      baseline.rows.append(row)
      defer { baseline.rows.removeLast() }
      return base.reduce(into: &state, action: action)
    }
  }

  func navigationNodes(in state: Value) -> [NavigationNode] { base.navigationNodes(in: state) }
}

/// `relua.onChange(of, handler)` at its place among the feature's reducers (TCA's
/// `.onChange(of:)`): when the watched value differs (as Lua sees values) from the one the action
/// found, `handler(state, old, new, deps, action)` runs and may return an effect.
struct OnChangeReducer: Reducer {
  typealias State = Value
  typealias Action = FeatureAction

  let entry: FeatureOnChange
  let feature: FeatureDefinition
  let host: ReluaHost
  let baseline: OnChangeBaseline

  func reduce(into state: inout Value, action: FeatureAction) -> Effect<FeatureAction> {
    guard let old = baseline.rows.last?[entry.index] else { return .none }
    return withUnsafeMutablePointer(to: &state) { state in
      callOnMainActor({ @MainActor (reducer: Self, call: (UnsafeMutablePointer<Value>, Value, FeatureAction)) in
        reducer.changed(&call.0.pointee, old: call.1, action: call.2)
      }, self, (state, old, action))
    }
  }

  @MainActor
  private func changed(_ state: inout Value, old: Value, action: FeatureAction) -> Effect<FeatureAction> {
    let new: Value
    do {
      new = try host.watched(entry.watched, in: state)
    } catch {
      return host.reducerFailure(error, feature: feature, action: action)
    }
    if old.sameInLua(as: new) { return .none }
    return host.runOnChange(entry.handler, feature: feature, state: &state, old: old, new: new, action: action)
  }

  func navigationNodes(in state: Value) -> [NavigationNode] { [] }
}
