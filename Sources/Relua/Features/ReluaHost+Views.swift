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
    return try callViewRaw(view, state: state) { stack, first -> String? in
      guard let first else { return nil }
      switch stack.type(at: first) {
      case .string:
        return stack.stringBytes(at: first).map { String(decoding: $0, as: UTF8.self) }
      case .table:
        var reader = ReluaViewTreeReader(host: self, feature: feature, screenPrefix: "")
        return try reader.read(at: first, stack, prefix: "", state: state).terminalText()
      case let type:
        throw ReluaError.usage("\(feature.name).view must return text or a relua.ui node, got \(type)")
      }
    }
  }

  /// The tree `view(state)` builds for a feature at `prefix` (its actions' paths from the root), a
  /// text view as one text node; nil when it has no view.
  package func viewTree(_ feature: FeatureDefinition, _ state: Value, prefix: String) throws -> ReluaViewNode? {
    guard let view = feature.viewFunction else { return nil }
    return try callViewRaw(view, state: state) { stack, first -> ReluaViewNode? in
      guard let first else { return nil }
      let type = stack.type(at: first)
      guard type == .string || type == .table else {
        throw ReluaError.usage("\(feature.name).view must return text or a relua.ui node, got \(type)")
      }
      var reader = ReluaViewTreeReader(host: self, feature: feature, screenPrefix: prefix)
      return try reader.read(at: first, stack, prefix: prefix, state: state)
    }
  }

  /// Calls `view` with `state` and reads its first result with `body` where it stands on the stack
  /// (`first`: its index, nil when the view returned nothing; no reference made to the tree's
  /// table), while the state's views are live (a node may hold one: a payload, a list's rows).
  /// Inside a reducer call (a session is running: a view drawn from a reducer) the view gets a
  /// Lua table of the state instead.
  private func callViewRaw<R>(_ view: LuaFunction, state: Value, _ body: (LuaRawStack, Int32?) throws -> R) throws -> R {
    func read(_ L: OpaquePointer, _ first: Int32, _ count: Int32) throws -> R {
      try body(LuaRawStack(L), count > 0 ? first : nil)
    }
    guard !views.isActive else {
      return try lua.callRaw(view, argumentCount: 1, pushArguments: { try state.push(onto: LuaRawStack($0)) }, readResults: read)
    }
    var session = state
    try views.openSession(moving: &session)
    views.isDrawing = true
    defer {
      views.isDrawing = false
      views.abortSession(returningTo: &session)
    }
    return try lua.callRaw(
      view, argumentCount: 1, pushArguments: { try self.views.pushSessionState(onto: LuaRawStack($0)) }, readResults: read)
  }
}
