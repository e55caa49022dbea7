/// What happened to one test (or to a test file that failed to load, named after the file).
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

  public init(name: String, file: String, outcome: Outcome, notes: [String] = []) {
    self.name = name
    self.file = file
    self.outcome = outcome
    self.notes = notes
  }

  public var failure: LuaTestFailure? {
    if case .failed(let failure) = outcome { return failure }
    return nil
  }
}
