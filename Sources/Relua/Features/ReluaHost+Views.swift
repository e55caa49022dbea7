import Lua

/// A feature's `view(state)`: the text the REPL shows, or the tree of `relua.ui` nodes it builds.
///
/// The view is given the state as a reducer is: a live view of the Swift value (no Lua table is
/// made of it: a 1,000-row state handed to a view that draws `relua.ui.forEach` was half of a
/// render), read in a state session that is always undone when the view returns — what a view
/// writes is its own, as it was when it got a copy (docs/DESIGN-NOTES.md, "Views").
extension ReluaHost {
  /// The text `view(state)` renders for a feature, or nil when it has no view. A tree is drawn as
  /// the REPL draws it, its commands relative to the screen
  /// (``ReluaViewNode/terminalText(screenPrefix:)``).
  package func render(_ feature: FeatureDefinition, _ state: Value) throws -> String? {
    guard let view = feature.viewFunction else { return nil }
    return try callView(view, state: state) { first -> String? in
      guard let first else { return nil }
      if let text = first.stringValue { return text }
      if first.tableValue != nil {
        var reader = ReluaViewTreeReader(host: self, feature: feature, screenPrefix: "")
        return try reader.read(first, prefix: "", state: state).terminalText()
      }
      throw ReluaError.usage("\(feature.name).view must return text or a relua.ui node, got \(first.type)")
    }
  }

  /// The tree `view(state)` builds for a feature at `prefix` (its actions' paths from the root), a
  /// text view as one text node; nil when it has no view.
  package func viewTree(_ feature: FeatureDefinition, _ state: Value, prefix: String) throws -> ReluaViewNode? {
    guard let view = feature.viewFunction else { return nil }
    return try callView(view, state: state) { first -> ReluaViewNode? in
      guard let first else { return nil }
      guard first.stringValue != nil || first.tableValue != nil else {
        throw ReluaError.usage("\(feature.name).view must return text or a relua.ui node, got \(first.type)")
      }
      var reader = ReluaViewTreeReader(host: self, feature: feature, screenPrefix: prefix)
      return try reader.read(first, prefix: prefix, state: state)
    }
  }

  /// Calls `view` with `state` and reads its first result with `body` while the state's views are
  /// live (a node may hold one: a payload, a list's rows). Inside a reducer call (a session is
  /// running: a view drawn from a reducer) the view gets a Lua table of the state instead.
  private func callView<R>(_ view: LuaFunction, state: Value, _ body: (LuaValue?) throws -> R) throws -> R {
    guard !views.isActive else { return try body(try lua.call(view, lua.value(state)).first) }
    var session = state
    try views.openSession(moving: &session)
    views.isDrawing = true
    // Undone whatever happens: the state the view saw is never kept, written or not.
    defer {
      views.isDrawing = false
      views.abortSession(returningTo: &session)
    }
    let argument = try StateSession(host: views).view()
    return try body(try lua.call(view, argument).first)
  }
}
