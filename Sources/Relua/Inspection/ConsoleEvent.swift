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
    /// The state put back to the one after the log's entry `to` (an inspector's time travel).
    case jumped(to: Int)
    /// Nothing happened to the state, but what an inspector shows beside it changed (`:record`
    /// started or stopped, so jumps are refused or allowed): no entry, only `live`.
    case liveChanged
  }

  /// Who sent an action.
  package enum Sender: String, Sendable {
    /// Sent to the store from the prompt: a command (`:increment`) or Lua typed there (`store:send`).
    case typed
    /// Delivered by an effect (a `.send` follow-up, a timer's tick, a response).
    case effect
    /// Sent from an inspector's page.
    case page
    /// Sent by the Swift program that made the store (`ReluaStore.send`).
    case program
    /// Sent by the REPL when a screen appeared: its feature's `task` action (see `ScreenTasks`).
    case task
  }

  package enum Reason: String, Sendable {
    case undo, redo, load, reload
    /// An inspector's jump back (told as `Kind.jumped`).
    case jump
    /// An effect's action failed in its reducer (its state restored): an export starts over
    /// after it, as a test cannot replay a reducer's failure.
    case failure
  }

  package var kind: Kind
  /// The diff from the state before to `state`, in lines, cut as the REPL prints it; empty when
  /// nothing changed.
  package var diff: [String]
  /// The whole state after it.
  package var state: Value
  package var time: Date
  /// The screens, effects and actions as they are after it (for an inspector), when the
  /// observer asked for them (`ConsoleEventTap`'s `live`).
  package var live: InspectionLive?

  package init(kind: Kind, diff: [String], state: Value, time: Date = Date(), live: InspectionLive? = nil) {
    self.kind = kind
    self.diff = diff
    self.state = state
    self.time = time
    self.live = live
  }

  /// `ValueDiff`'s lines from `old` to `new` (cut), none when they are equal.
  static func diffLines(from old: Value, to new: Value) -> [String] {
    ValueDiff.lines(from: old, to: new).map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } ?? []
  }
}
