/// A reducer that does nothing (the child of an alert, a placeholder).
public struct EmptyReducer<State, Action>: Reducer {
  /// A reducer that does nothing.
  @inlinable public init() {}
  /// Changes nothing; no effect.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}
