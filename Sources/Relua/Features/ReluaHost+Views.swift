import Lua

/// A feature's `view(state)`: the text the REPL shows, or the tree of `relua.ui` nodes it builds.
extension ReluaHost {
  /// The text `view(state)` renders for a feature, or nil when it has no view. A tree is drawn as
  /// the REPL draws it, its commands relative to the screen
  /// (``ReluaViewNode/terminalText(screenPrefix:)``).
  package func render(_ feature: FeatureDefinition, _ state: Value) throws -> String? {
    guard let view = feature.viewFunction else { return nil }
    let result = try lua.call(view, lua.value(state))
    guard let first = result.first else { return nil }
    if let text = first.stringValue { return text }
    if first.tableValue != nil {
      var reader = ReluaViewTreeReader(host: self, feature: feature, screenPrefix: "")
      return try reader.read(first, prefix: "", state: state).terminalText()
    }
    throw ReluaError.usage("\(feature.name).view must return text or a relua.ui node, got \(first.type)")
  }

  /// The tree `view(state)` builds for a feature at `prefix` (its actions' paths from the root), a
  /// text view as one text node; nil when it has no view.
  package func viewTree(_ feature: FeatureDefinition, _ state: Value, prefix: String) throws -> ReluaViewNode? {
    guard let view = feature.viewFunction else { return nil }
    let result = try lua.call(view, lua.value(state))
    guard let first = result.first else { return nil }
    var reader = ReluaViewTreeReader(host: self, feature: feature, screenPrefix: prefix)
    guard first.stringValue != nil || first.tableValue != nil else {
      throw ReluaError.usage("\(feature.name).view must return text or a relua.ui node, got \(first.type)")
    }
    return try reader.read(first, prefix: prefix, state: state)
  }
}
