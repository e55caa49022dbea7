import Lua

/// A feature's `view(state)`: the text the REPL shows.
extension ReluaHost {
  /// The text `view(state)` renders for a feature, or nil when it has no view.
  package func render(_ feature: FeatureDefinition, _ state: Value) throws -> String? {
    guard let view = feature.viewFunction else { return nil }
    let result = try lua.call(view, lua.value(state))
    guard let first = result.first else { return nil }
    if let text = first.stringValue { return text }
    throw ReluaError.usage("\(feature.name).view must return text, got \(first.type)")
  }
}
