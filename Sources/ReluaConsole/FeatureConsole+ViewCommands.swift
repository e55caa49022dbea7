import Relua

extension FeatureConsole {
  /// The commands the view on top shows (its buttons', links' and bound controls'), relative to
  /// the screen as the REPL takes them: `:help` lists them, Tab completes them. Empty for a text
  /// view, an alert, or a view that fails (showing the screen reports that error).
  var viewCommands: [String] {
    guard let top = store.screens.last, top.alertStyle == nil,
          let tree = try? session.host.viewTree(top.feature, top.state, prefix: top.actionPrefix)
    else { return [] }
    return tree.commands(screenPrefix: top.actionPrefix)
  }

  /// `:help`'s line for them: `On screen: :increment :decrement …`, or none.
  var viewCommandHelpLines: [String] {
    let commands = viewCommands
    return commands.isEmpty ? [] : ["On screen: " + commands.joined(separator: "  ")]
  }
}
