import Relua

extension FeatureConsole {
  /// Draws the screen on top's view (text, or a tree with each control's command relative to the
  /// screen) and keeps the commands it shows for `:help` and Tab (``viewCommands``): the view runs
  /// once per showing, under the caller's Ctrl-C, never at a prompt.
  func renderTopView(_ top: FeatureScreen) throws -> String? {
    shownViewCommands = []
    guard let tree = try session.host.screenTree(top, in: store.screens) else { return nil }
    if case .text(let text) = tree { return text }
    shownViewCommands = tree.commands(screenPrefix: top.actionPrefix)
    return tree.terminalText(screenPrefix: top.actionPrefix)
  }

  /// The commands the view on top shows (its buttons', links' and bound controls'), as the REPL
  /// takes them: `:help` lists them, Tab completes them. Empty for a text view or an alert.
  var viewCommands: [String] { shownViewCommands }

  /// `:help`'s line for them: `On screen: :increment  :decrement …`, or none.
  var viewCommandHelpLines: [String] {
    viewCommands.isEmpty ? [] : ["On screen: " + viewCommands.joined(separator: "  ")]
  }
}
