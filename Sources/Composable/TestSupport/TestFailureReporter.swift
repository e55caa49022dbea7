import IssueReporting

/// Where in the caller's source a test assertion was made. Swift callers pass `#filePath`/`#line`;
/// hosts (a Lua test runner) pass their own script location as `file`.
public struct SourceLocation: Sendable, CustomStringConvertible {
  public var file: String
  public var line: UInt
  let staticFile: StaticString?

  public init(file: StaticString = #filePath, line: UInt = #line) {
    self.file = "\(file)"
    self.line = line
    self.staticFile = file
  }

  public init(file: String, line: UInt) {
    self.file = file
    self.line = line
    self.staticFile = nil
  }

  public var description: String { "\(file):\(line)" }

  /// The same file and line.
  static func same(_ a: SourceLocation, _ b: SourceLocation) -> Bool { a.line == b.line && a.file == b.file }
}

/// Receives TestStore failures. The default reports them to XCTest / Swift Testing (IssueReporting);
/// a host test runner routes them to its own report.
public protocol TestFailureReporter {
  @MainActor func reportFailure(_ message: String, at location: SourceLocation)
  /// What a non-exhaustive store skipped (`Exhaustivity.off(showSkippedAssertions: true)`): a note
  /// for the test's output, not a failure. Ignored unless a reporter shows it.
  @MainActor func reportSkippedAssertions(_ message: String, at location: SourceLocation)
}

extension TestFailureReporter {
  public func reportSkippedAssertions(_ message: String, at location: SourceLocation) {}
}

/// Reports through IssueReporting (XCTFail in XCTest, an issue in Swift Testing).
public struct IssueTestFailureReporter: TestFailureReporter {
  public init() {}
  public func reportFailure(_ message: String, at location: SourceLocation) {
    if let file = location.staticFile {
      reportIssue(message, filePath: file, line: location.line)
    } else {
      reportIssue("\(location): \(message)")
    }
  }

  /// As TCA does: an expected issue (XCTest's "expected failure"), which does not fail the test.
  public func reportSkippedAssertions(_ message: String, at location: SourceLocation) {
    withExpectedIssue { reportFailure(message, at: location) }
  }
}

/// A reporter from a closure (e.g. collecting failures in an array to assert on them).
public struct ClosureTestFailureReporter: TestFailureReporter {
  let report: @MainActor (String, SourceLocation) -> Void
  let skipped: (@MainActor (String, SourceLocation) -> Void)?
  /// `skipped` receives skipped assertions (ignored when nil).
  public init(
    _ report: @escaping @MainActor (_ message: String, _ location: SourceLocation) -> Void,
    skipped: (@MainActor (_ message: String, _ location: SourceLocation) -> Void)? = nil
  ) {
    self.report = report
    self.skipped = skipped
  }
  public func reportFailure(_ message: String, at location: SourceLocation) { report(message, location) }
  public func reportSkippedAssertions(_ message: String, at location: SourceLocation) { skipped?(message, location) }
}
