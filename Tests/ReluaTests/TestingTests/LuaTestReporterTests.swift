import XCTest

@testable import Relua
@testable import ReluaTesting

@MainActor
final class LuaTestReporterTests: XCTestCase {
  private let suite = """
    test("passes", function() end)
    test("fails", function()
      assert_equal({ 1, 2 }, { 1, 3 })
    end)
    pending("todo")
    """

  private func output(_ makeReporter: (@escaping (String) -> Void) -> any LuaTestReporter) async throws -> String {
    let directory = try LuaTestDirectory()
    try directory.write("report_test.lua", suite)
    let collector = LineCollector()
    let reporter = makeReporter { collector.write($0) }
    // Relative paths keep file names in the output stable.
    _ = await directory.inside { await LuaTestRunner().run(paths: ["."], reporter: reporter) }
    return collector.text
  }

  func testPlainConsoleOutput() async throws {
    let text = try await output { LuaTestConsoleReporter(style: .plain, write: $0) }
    XCTAssertEqual(text, """
      PASS passes
      FAIL fails
      SKIP todo

      Failures:

      1) fails
         report_test.lua:3: expected { 1, 3 }, got { 1, 2 }
         stack traceback:
           report_test.lua:3: in function <report_test.lua:2>

      1 passed, 1 failed, 1 skipped

      """)
  }

  func testSymbolsConsoleOutput() async throws {
    let text = try await output { LuaTestConsoleReporter(style: .symbols, write: $0) }
    XCTAssertTrue(text.contains("✓\u{1B}[0m passes\n"), text)
    XCTAssertTrue(text.contains("✗ fails"), text)
    XCTAssertTrue(text.contains("- todo (skipped)"), text)
    XCTAssertTrue(text.hasSuffix("\n1 passed, 1 failed, 1 skipped\n"), text)
  }

  func testTAPOutput() async throws {
    let text = try await output { LuaTestTAPReporter(write: $0) }
    // (A traceback item's ": " is written \x3a, a YAML escape: Perl's YAMLish reader, which
    // prove uses, takes an item with ": " in it for a key and value, even quoted.)
    XCTAssertEqual(text, """
      TAP version 13
      1..3
      ok 1 - passes
      not ok 2 - fails
        ---
        message: "expected { 1, 3 }, got { 1, 2 }"
        at: "report_test.lua:3"
        traceback:
          - "report_test.lua:3\\x3a in function <report_test.lua:2>"
        ...
      ok 3 - todo # SKIP
      # 1 passed, 1 failed, 1 skipped

      """)
  }

  func testTAPEscapesNamesAndQuotesMessages() {
    let collector = LineCollector()
    let reporter = LuaTestTAPReporter { collector.write($0) }
    reporter.report(
      LuaTestResult(name: "issue #3", file: "f", outcome: .failed(LuaTestFailure(message: "a \"b\"\nc", location: nil))),
      number: 1)
    XCTAssertEqual(collector.lines, ["not ok 1 - issue \\#3", "  ---", "  message: \"a \\\"b\\\"\\nc\"", "  ..."])
  }
}
