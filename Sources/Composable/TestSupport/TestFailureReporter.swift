import IssueReporting

/// Where in the caller's source a test assertion was made. Swift callers pass `#filePath`/`#line`;
/// hosts (a Lua test runner) pass their own script location as `file`.
public struct SourceLocation: Sendable, CustomStringConvertible {
  /// The file's path (a Swift `#filePath`, or a host's script path).
  public var file: String
  /// The line in the file.
  public var line: UInt
  let staticFile: StaticString?

  /// The caller's place in Swift source (`#filePath`, `#line` by default).
  public init(file: StaticString = #filePath, line: UInt = #line) {
    self.file = "\(file)"
    self.line = line
    self.staticFile = file
  }

  /// A place that is not Swift source (a script's path and line).
  public init(file: String, line: UInt) {
    self.file = file
    self.line = line
    self.staticFile = nil
  }

  /// `file:line`.
  public var description: String { "\(file):\(line)" }

  /// The same file and line.
  static func same(_ a: SourceLocation, _ b: SourceLocation) -> Bool { a.line == b.line && a.file == b.file }
}

/// Receives TestStore failures. The default reports them to XCTest / Swift Testing (IssueReporting);
/// a host test runner routes them to its own report.
public protocol TestFailureReporter {
  /// Reports a failed assertion at `location`.
  @MainActor func reportFailure(_ message: String, at location: SourceLocation)
  /// What a non-exhaustive store skipped (`Exhaustivity.off(showSkippedAssertions: true)`): a note
  /// for the test's output, not a failure. Ignored unless a reporter shows it.
  @MainActor func reportSkippedAssertions(_ message: String, at location: SourceLocation)
}

extension TestFailureReporter {
  /// Ignores what was skipped, by default.
  public func reportSkippedAssertions(_ message: String, at location: SourceLocation) {}
}

/// Reports through IssueReporting (XCTFail in XCTest, an issue in Swift Testing).
public struct IssueTestFailureReporter: TestFailureReporter {
  /// The reporter for XCTest and Swift Testing.
  public init() {}
  /// Reports an issue at `location` (XCTFail in XCTest, an issue in Swift Testing).
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
  /// Calls the reporter's closure.
  public func reportFailure(_ message: String, at location: SourceLocation) { report(message, location) }
  /// Calls the `skipped` closure, if any.
  public func reportSkippedAssertions(_ message: String, at location: SourceLocation) { skipped?(message, location) }
}
