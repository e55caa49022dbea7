import Relua

/// What happened to one test (or to a test file that failed to load, named after the file).
///
/// Two results are equal when their name, file, outcome and notes are: where the test was declared,
/// how long it took and in which run of a `--repeat` are circumstances, not what happened.
public struct LuaTestResult: Sendable, Equatable {
  /// How a test ended.
  public enum Outcome: Sendable, Equatable {
    /// Its body and the end-of-test checks ran without a failure.
    case passed
    /// It failed (an expectation, an error, a check at its end), saying why and where.
    case failed(LuaTestFailure)
    /// It did not run: declared with `skip` or `pending`.
    case skipped
  }

  /// The full name: enclosing `describe` names and the test's name, joined with spaces.
  public var name: String
  /// The test file, as discovered (relative when the search path was).
  public var file: String
  /// Passed, failed (and why) or skipped.
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

  /// A result; `location`, `duration` and `run` are circumstances, left out of equality.
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

  /// Equal when name, file, outcome and notes are (see the type).
  public static func == (lhs: LuaTestResult, rhs: LuaTestResult) -> Bool {
    lhs.name == rhs.name && lhs.file == rhs.file && lhs.outcome == rhs.outcome && lhs.notes == rhs.notes
  }

  /// The failure, when the test failed.
  public var failure: LuaTestFailure? {
    if case .failed(let failure) = outcome { return failure }
    return nil
  }
}
