import Relua

/// A screen's action named like a REPL command (`save` and `cancel` in an edit sheet): `:save`
/// sends the action, as a TCA user expects of a sheet's Save button. The REPL's command is
/// always `::save FILE` (and `:save FILE` still is, when the action takes no payload: the
/// argument can only be the command's). The first clash of each reading says which it is.
extension FeatureConsole {
  /// The REPL's own commands in feature mode, each with how it is written (`:help`, `:quit` and
  /// their short forms are the session's).
  static let commandUsages: [String: String] = [
    "send": "::send ACTION [PAYLOAD]", "state": "::state [PATH]", "screens": "::screens", "back": "::back",
    "cancel": "::cancel [N | all]", "undo": "::undo", "redo": "::redo", "reload": "::reload",
    "save": "::save FILE", "load": "::load FILE", "record": "::record FILE", "stop": "::stop [FILE]",
  ]

  /// The action `name` reaches from the screen on top — its own, a scoped child's, an alert's
  /// button — with its path from the root, its payload type and whose it is; nil when none.
  func screenAction(named name: String) -> (path: String, payload: PayloadType, owner: String)? {
    guard let top = store.screens.last else { return nil }
    var candidates = [top.actionPrefix + name]
    for child in top.feature.children where child.actionsFollowKey {
      candidates.append(top.actionPrefix + child.key + "." + name)
    }
    let owner = top.alertStyle.map { "the \($0.rawValue)'s" } ?? top.feature.name + "'s"
    for path in candidates {
      if let payload = try? store.resolver.payloadType(path) { return (path, payload, owner) }
    }
    return nil
  }

  /// Whether `:name argument` sends the screen's action rather than run the REPL's command
  /// `name`: it does when the screen on top has such an action, unless `argument` is given and
  /// the action takes none. Explains each reading the first time it is made.
  func sendsScreenAction(_ name: String, _ argument: String) -> Bool {
    guard let usage = Self.commandUsages[name], let action = screenAction(named: name) else { return false }
    let sends = argument.isEmpty || action.payload != .none
    // (Each reading explained once: the action's, and the command's with an argument.)
    if explainedClashes.insert(sends ? name : "::" + name).inserted {
      let output = session.output
      let note = sends
        ? "(:\(name) sends \(action.owner) action \(name), on screen; the REPL's command is \(usage))"
        : "(:\(name) \(argument) is the REPL's command: \(action.owner) action \(name) takes no payload; :\(name) alone sends it, \(usage) is always the command)"
      output.write(output.styled(note, .dim))
    }
    return sends
  }
}
