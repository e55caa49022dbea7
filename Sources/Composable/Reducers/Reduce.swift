/// A reducer from a closure: the leaf where a feature's own logic lives.
public struct Reduce<State, Action>: Reducer {
  @usableFromInline
  let reduce: (inout State, Action) -> Effect<Action>

  /// A reducer running `reduce`.
  @inlinable
  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.reduce = reduce
  }

  /// Erases any reducer to a closure reducer (keeps its navigation nodes).
  @inlinable
  public init<R: Reducer>(_ reducer: R) where R.State == State, R.Action == Action {
    self.reduce = reducer.reduce(into:action:)
    self.navigation = reducer.navigationNodes(in:)
  }

  @usableFromInline var navigation: ((State) -> [NavigationNode])? = nil

  /// Runs the closure.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reduce(&state, action)
  }

  /// The wrapped reducer's navigation nodes (none for a closure).
  public func navigationNodes(in state: State) -> [NavigationNode] { navigation?(state) ?? [] }
}
