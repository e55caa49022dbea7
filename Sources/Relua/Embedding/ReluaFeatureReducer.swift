import Composable

/// A Lua feature as a reducer a Swift feature composes: its state is a `Value` field of the Swift
/// state, its actions a `FeatureAction` case of the Swift action.
///
///     struct Scoreboard: Reducer {
///       struct State { var best = 0; var counter: Value }
///       enum Action { case counter(FeatureAction), resetBest }
///       let counter: ReluaFeatureReducer          // relua.reducer(for: try relua.loadFeature(file: "Counter.lua"))
///       var body: some Reducer<State, Action> {
///         Scope(state: \.counter, action: CaseLens(Action.counter) { … }) { counter }
///         Reduce { state, action in … }          // sees the child's actions, as in TCA
///       }
///     }
///
/// Its effects, cancellation and dependencies (`deps.<name>`) are the Swift store's. Make the
/// store `transactional` so that a Lua reducer that raises leaves the state as it was.
public struct ReluaFeatureReducer: Reducer {
  /// The Lua feature's state, a `Value` field of the Swift state.
  public typealias State = Value
  /// The Lua feature's actions, by path and payload (`FeatureAction`).
  public typealias Action = FeatureAction

  let base: AnyFeatureReducer
  /// The Lua feature this reducer runs.
  public let feature: FeatureDefinition

  /// Runs the Lua feature's reducer for `action` on `state`; its effects are the Swift store's.
  public func reduce(into state: inout Value, action: FeatureAction) -> Effect<FeatureAction> {
    base.reduce(into: &state, action: action)
  }

  /// The destinations and stacks the Lua feature presents in `state`, for the store's navigation.
  public func navigationNodes(in state: Value) -> [NavigationNode] { base.navigationNodes(in: state) }
}

extension ReluaRuntime {
  /// `feature` as a reducer for a Swift feature's `Scope`.
  public func reducer(for feature: FeatureDefinition) -> ReluaFeatureReducer {
    ReluaFeatureReducer(base: FeatureReducerBuilder.reducer(for: feature, host: host), feature: feature)
  }

  /// `feature`'s initial state: its `state(deps)` with the live dependencies changed by `prepare`
  /// (a test's incrementing uuids), or a copy of its table.
  public func initialState(of feature: FeatureDefinition, prepare: (inout DependencyValues) -> Void = { _ in }) throws -> Value {
    var dependencies = DependencyValues.fallback
    prepare(&dependencies)
    return try host.initialState(of: feature, dependencies: dependencies)
  }

  /// An action of `feature` by name or path, with its payload, checked as a typed one is (an
  /// unknown name or a payload of the wrong type throws, saying why).
  public func action(_ path: String, _ payload: Value = .null, of feature: FeatureDefinition) throws -> FeatureAction {
    try host.resolver(for: feature).resolve(path, payload: payload)
  }
}
