import Foundation

/// Something the REPL's store went through, as an observer outside the REPL sees it (the
/// inspector, `relua repl --inspect`): the feature opened, an action reduced, the state replaced
/// without an action. Told through `ConsoleSession.eventObserver`; nothing is computed for it when
/// no observer is set.
package struct ConsoleEvent: Sendable {
  package enum Kind: Sendable, Equatable {
    /// The script returned a feature and the REPL opened a store of it.
    case opened(feature: String, file: String)
    /// An action the store reduced (one per action: a send that leads to follow-ups is several).
    /// `payload` is a Lua literal cut as the REPL prints it.
    case action(name: String, payload: String, sender: Sender)
    /// The state replaced by a command, not by an action (`:undo`, `:redo`, `:load`), or the
    /// scripts re-read with the state kept (`:reload`).
    case replaced(Reason)
  }

  /// Who sent an action.
  package enum Sender: String, Sendable {
    /// Sent to the store from the prompt: a command (`:increment`) or Lua typed there (`store:send`).
    case typed
    /// Delivered by an effect (a `.send` follow-up, a timer's tick, a response).
    case effect
  }

  package enum Reason: String, Sendable {
    case undo, redo, load, reload
  }

  package var kind: Kind
  /// The diff from the state before to `state`, in lines, cut as the REPL prints it; empty when
  /// nothing changed.
  package var diff: [String]
  /// The whole state after it.
  package var state: Value
  package var time: Date

  package init(kind: Kind, diff: [String], state: Value, time: Date = Date()) {
    self.kind = kind
    self.diff = diff
    self.state = state
    self.time = time
  }

  /// `ValueDiff`'s lines from `old` to `new` (cut), none when they are equal.
  static func diffLines(from old: Value, to new: Value) -> [String] {
    ValueDiff.lines(from: old, to: new).map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } ?? []
  }
}
