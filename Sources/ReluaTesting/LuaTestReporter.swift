import Relua

/// Receives a test run as it happens (console lines, TAP, a Swift test's assertions...).
@MainActor
public protocol LuaTestReporter: AnyObject {
  /// Before the first test: how many results will follow.
  func begin(testCount: Int)
  /// After each test; `number` counts from 1.
  func report(_ result: LuaTestResult, number: Int)
  /// After the last test.
  func finish(_ summary: LuaTestSummary)
}

/// Collects nothing and prints nothing (the summary has the results).
public final class LuaTestSilentReporter: LuaTestReporter {
  /// A reporter that keeps nothing.
  public init() {}
  /// Does nothing.
  public func begin(testCount: Int) {}
  /// Does nothing.
  public func report(_ result: LuaTestResult, number: Int) {}
  /// Does nothing.
  public func finish(_ summary: LuaTestSummary) {}
}
