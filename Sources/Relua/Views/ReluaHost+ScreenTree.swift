import Lua

/// A screen's tree as renderers draw it: its feature's view, with the bar its presenter's view
/// gives it (`relua.ui.toolbar("destination.add", { … })`, TCA's toolbar of a sheet) on top.
extension ReluaHost {
  /// The tree of `screen` (one of `screens`, as `FeatureScreens` lists them); nil when its feature
  /// has no view and no presenter gives it a bar, or for an alert.
  package func screenTree(_ screen: FeatureScreen, in screens: [FeatureScreen]) throws -> ReluaViewNode? {
    guard screen.alertStyle == nil else { return nil }
    let own = try viewTree(screen.feature, screen.state, prefix: screen.actionPrefix)
    guard let presenter = Self.presenter(of: screen, in: screens),
          let presenterTree = try viewTree(presenter.feature, presenter.state, prefix: presenter.actionPrefix)
    else { return own }
    let bars = presenterTree.allNodes.flatMap { node -> [ReluaViewNode] in
      guard case .toolbar(let target, let items) = node, target == screen.place else { return [] }
      return items
    }
    guard !bars.isEmpty else { return own }
    return .vstack([.toolbar(screen: "", items: bars)] + (own.map { [$0] } ?? []))
  }

  /// The text of `screen` as the REPL draws it (``screenTree(_:in:)``'s, commands relative to the
  /// screen), or nil without a view.
  package func screenText(_ screen: FeatureScreen, in screens: [FeatureScreen]) throws -> String? {
    guard let tree = try screenTree(screen, in: screens) else { return nil }
    if case .text(let text) = tree { return text }
    return tree.terminalText(screenPrefix: screen.actionPrefix)
  }

  /// The screen that presents `screen`: the nearest one whose place leads to it (the root for a
  /// sheet of the root or a pushed element).
  private static func presenter(of screen: FeatureScreen, in screens: [FeatureScreen]) -> FeatureScreen? {
    guard !screen.place.isEmpty else { return nil }
    return screens
      .filter { $0.alertStyle == nil && $0.place != screen.place && ($0.place.isEmpty || screen.place.hasPrefix($0.place + ".")) }
      .max { $0.place.count < $1.place.count }
  }
}
