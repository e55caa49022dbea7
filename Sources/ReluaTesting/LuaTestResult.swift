import Relua

/// What happened to one test (or to a test file that failed to load, named after the file).
///
/// Two results are equal when their name, file, outcome and notes are: where the test was declared,
/// how long it took and in which run of a `--repeat` are circumstances, not what happened.
public struct LuaTestResult: Sendable, Equatable {
  public enum Outcome: Sendable, Equatable {
    case passed
    case failed(LuaTestFailure)
    case skipped
  }

  /// The full name: enclosing `describe` names and the test's name, joined with spaces.
  public var name: String
  /// The test file, as discovered (relative when the search path was).
  public var file: String
  public var outcome: Outcome
  /// Informational notes, not failures: what a non-exhaustive test store skipped
  /// (`store:exhaustive(false, { showSkipped = true })`), each starting with its script line.
  public var notes: [String]
  /// `file:line` where the test was declared (its `it`/`test` call), when known.
  public var location: String?
  /// Seconds the test took (loading its file again, hooks, body, end-of-test checks).
  public var duration: Double
  /// Which run of the tests this result is from, counting from 1 (`relua test --repeat N`).
  public var run: Int

  public init(
    name: String, file: String, outcome: Outcome, notes: [String] = [], location: String? = nil,
    duration: Double = 0, run: Int = 1
  ) {
    self.name = name
    self.file = file
    self.outcome = outcome
    self.notes = notes
    self.location = location
    self.duration = duration
    self.run = run
  }

  public static func == (lhs: LuaTestResult, rhs: LuaTestResult) -> Bool {
    lhs.name == rhs.name && lhs.file == rhs.file && lhs.outcome == rhs.outcome && lhs.notes == rhs.notes
  }

  public var failure: LuaTestFailure? {
    if case .failed(let failure) = outcome { return failure }
    return nil
  }
}
