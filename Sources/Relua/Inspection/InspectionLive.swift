import Composable

/// What an inspector draws beside the action log, as it is now: the screens (the navigation,
/// derived from state), the effects in flight, the actions a page may send, and what a jump or an
/// export would do. Plain values, made on the main actor, read on any thread.
package struct InspectionLive: Sendable, Equatable {
  package struct Screen: Sendable, Equatable {
    package enum Kind: String, Sendable {
      case root, presented, pushed, alert, confirmationDialog
    }
    /// The feature's name; `Alert` or `Confirmation dialog` for those.
    package var name: String
    /// How it is reached: `""` for the root, `destination.results`, `path[id=0].detail`.
    package var place: String
    package var kind: Kind
    /// The action that closes it (`destination.dismiss`, `path.popFrom`), nil for the root.
    package var close: String?
    /// Its payload (a stack element's id for `popFrom`), nil for none.
    package var closePayload: Value?
    /// The screen as the REPL prints it: its view, an alert's text, else its state (cut).
    package var text: String
    /// The actions its lifecycle sends when it appears (`task = "onTask"`, see `ScreenTasks`).
    package var tasks: [String] = []
  }

  package struct Action: Sendable, Equatable {
    /// From the root: `counter.setCount`, `rows[id=3].toggle`.
    package var path: String
    /// Its declared payload type; nil for none.
    package var payload: PayloadType?
  }

  /// A place of the state that holds a shared value, and its key.
  package struct SharedPlace: Sendable, Equatable {
    /// The place as the inspector's state tree names it: `/notes`, `/path/[1]/detail/note`
    /// (record keys, and 1-based positions in lists).
    package var treePath: String
    /// The key, as a script writes it: `fileStorage("notes.json"):element()`.
    package var key: String
  }

  package var screens: [Screen] = []
  /// Where the state holds shared values (the inspector marks them).
  package var shared: [SharedPlace] = []
  package var effects: [RunningEffect] = []
  package var actions: [Action] = []
  /// Whether a jump back in time is allowed now (not while the REPL records a test).
  package var canTravel = true
  /// How many actions an export would hold, and since what (`open`, `undo`, `jump`, …).
  package var exportActions = 0
  package var exportSince = "open"

  package init() {}
}
