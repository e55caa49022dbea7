import Composable
import Lua

extension ReluaHost {
  /// A state a store is given as `state = function(deps) … end` rather than as a table: called
  /// with the store's dependencies (TCA builds a TestStore's `initialState` inside its
  /// `withDependencies`, so `deps.uuid()` there is the test's first UUID), then checked against the
  /// feature's composition as a given table is.
  func givenState(calling function: LuaFunction, of feature: FeatureDefinition, dependencies: DependencyValues) throws -> Value {
    let result = try DependencyValues.withValues(dependencies) { try lua.call(function, .table(deps)) }
    guard let table = result.first, case .table = table else {
      throw ReluaError.usage("state = function(deps): must return a table (the state of \(feature.name)), got \(result.first.map { "\($0.type)" } ?? "nothing")")
    }
    let state = try value(from: table)
    try FeatureStateCheck.check(state, against: feature)
    return FeatureStateShape.conform(state, to: feature)
  }
}
