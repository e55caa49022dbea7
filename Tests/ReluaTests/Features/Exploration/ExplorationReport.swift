@testable import Relua

/// An action sent on the way to a state, spelled as at the REPL's prompt: `:destination.results.remove {1}`.
struct SentAction: CustomStringConvertible {
  let path: String
  let payload: Value

  var description: String { ":" + path + (payload.isNull ? "" : " " + payload.luaLiteral()) }
}

/// A screen whose view raised, and the shortest action path found to it.
struct ViewFailure: CustomStringConvertible {
  let path: [SentAction]
  /// The screen that failed (`Detail at path[2].detail`) and the breadcrumb of all showing.
  let screen: String
  let breadcrumb: String
  let error: String

  var description: String {
    let steps = path.isEmpty ? "in the initial state" : "after " + path.map(\.description).joined(separator: " → ")
    return "the view of \(screen) raised \(steps) (screens: \(breadcrumb)): \(error)"
  }
}

/// What the exploration of one feature saw.
struct ExplorationReport {
  /// Distinct states reached (the initial one included), each rendered.
  var states = 0
  var sends = 0
  /// Sends whose reducer raised (the state is unchanged: nothing new to render).
  var refusedByReducers = 0
  /// Actions the exploration built that relua does not accept: a bug of the exploration's own.
  var unresolved: [String] = []
  /// The breadcrumbs of the navigation states reached (`Game`, `Game › ResultList`).
  var screens: Set<String> = []
  /// One per screen and error (the first found: BFS, so along a shortest path).
  var failures: [ViewFailure] = []
  /// Whether the state cap stopped the exploration before its depth.
  var capped = false
}
