import Relua

/// A screen's lifecycle in the REPL (TCA's `.task`): when a screen whose feature declares
/// `task = "onTask"` appears — the root when the session opens, a pushed element or a presented
/// destination when it shows, by a command, an effect, `:undo`/`:load` or an inspector's page —
/// the REPL sends its task action, printed as `(task) :path[id=0].detail.onTask` with what it
/// changed; when the screen goes, the effects that send started are cancelled. `:reload` makes a
/// new store (the old one's effects stopped): every screen shown appears in it, and is sent its task again.
extension FeatureConsole {
  /// The most rounds of tasks one change runs (a task that opens a screen whose task opens another…).
  static let screenTaskRounds = 100

  func runScreenTasks() {
    // (A task's send shows its change, which shows the screen, which comes back here.)
    guard !isRunningScreenTasks else { return }
    isRunningScreenTasks = true
    defer { isRunningScreenTasks = false }
    let output = session.output
    for _ in 0..<Self.screenTaskRounds {
      let appeared = screenTasks.update(feature: definition, state: currentState)
      if appeared.isEmpty { return }
      for appearance in appeared {
        output.write(output.styled("(task) :" + appearance.action, .dim))
        let send = {
          // (An inspector's log marks it as the screen's task, not as what was typed.)
          let run = { _ = self.perform { self.screenTasks.started(try self.store.send(appearance.action), for: appearance) } }
          if let eventTap = self.eventTap { eventTap.sending(from: .task, run) } else { run() }
        }
        if isRunningCommand { send() } else { asCommand { send() } }
      }
    }
  }
}
