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

  public init(name: String, file: String, outcome: Outcome) {
    self.name = name
    self.file = file
    self.outcome = outcome
  }

  public var failure: LuaTestFailure? {
    if case .failed(let failure) = outcome { return failure }
    return nil
  }
}
