/// A reducer whose reduce (and the effects it creates) sees changed dependencies.
public struct DependencyModifier<Base: Reducer>: Reducer {
  let base: Base
  let update: (inout DependencyValues) -> Void

  /// Runs the base reducer with the changed dependencies current.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    var values = DependencyValues.current
    update(&values)
    return DependencyValues.withValues(values) { base.reduce(into: &state, action: action) }
  }

  /// The base reducer's navigation nodes.
  public func navigationNodes(in state: Base.State) -> [NavigationNode] { base.navigationNodes(in: state) }
}

extension Reducer {
  /// Overrides one dependency for this reducer and its children.
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable, _ value: Value
  ) -> DependencyModifier<Self> where Value: Sendable {
    DependencyModifier(base: self) { $0[keyPath: keyPath] = value }
  }

  /// Changes dependencies for this reducer and its children.
  public func transformDependencies(_ update: @escaping (inout DependencyValues) -> Void) -> DependencyModifier<Self> {
    DependencyModifier(base: self, update: update)
  }
}
