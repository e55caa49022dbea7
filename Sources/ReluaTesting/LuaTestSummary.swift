import Relua

/// The results of a test run and its counts.
public struct LuaTestSummary: Sendable, Equatable {
  /// Every result, in the order the tests ran.
  public var results: [LuaTestResult] = []

  /// A summary of `results`.
  public init(results: [LuaTestResult] = []) { self.results = results }

  /// How many tests passed.
  public var passed: Int { results.filter { $0.outcome == .passed }.count }
  /// How many tests failed (a file that failed to load counts as one).
  public var failed: Int { results.filter { $0.failure != nil }.count }
  /// How many tests were skipped.
  public var skipped: Int { results.filter { $0.outcome == .skipped }.count }

  /// `N passed, N failed`, then `, N skipped` only when some were.
  public var closingLine: String {
    "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
  }

  /// The process exit code: the number of failures, capped at 125 (126 and up mean other things
  /// to shells); 0 when everything passed.
  public var exitCode: Int32 { Int32(min(failed, 125)) }
}
