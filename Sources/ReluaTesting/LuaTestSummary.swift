import Relua

/// The results of a test run and its counts.
public struct LuaTestSummary: Sendable, Equatable {
  public var results: [LuaTestResult] = []

  public init(results: [LuaTestResult] = []) { self.results = results }

  public var passed: Int { results.filter { $0.outcome == .passed }.count }
  public var failed: Int { results.filter { $0.failure != nil }.count }
  public var skipped: Int { results.filter { $0.outcome == .skipped }.count }

  /// `N passed, N failed`, then `, N skipped` only when some were.
  public var closingLine: String {
    "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
  }

  /// The process exit code: the number of failures, capped at 125 (126 and up mean other things
  /// to shells); 0 when everything passed.
  public var exitCode: Int32 { Int32(min(failed, 125)) }
}
