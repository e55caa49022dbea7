import XCTest

/// `relua test`'s output as it happens, and failures whose text the script computes.
final class TestCommandOutputTests: XCTestCase {
  /// Piped output is written result by result: a suite killed in its second test has already
  /// shown the first one's line.
  func testEachResultLineIsWrittenAsItHappens() throws {
    let dir = try ScriptDirectory()
    try dir.write("slow_test.lua", """
      test("quick", function() assert(true) end)
      test("endless", function() while true do end end)
      """)
    let process = try RunningRelua(["test", ".", "--instruction-limit", "100000000000000"], currentDirectory: dir.url)
    let appeared = process.waitForOutput(containing: "PASS quick\n", seconds: 20)
    let stillRunning = process.process.isRunning
    process.process.terminate()
    let result = process.finish()
    XCTAssertTrue(appeared, "the first result was not written before the second test ended: \(result.stdout)")
    XCTAssertTrue(stillRunning, "the second test was still running when the line appeared")
  }

  func testAFailureWhoseErrorTostringLoopsIsReportedWithinABudget() throws {
    let dir = try ScriptDirectory()
    try dir.write("object_test.lua", """
      test("raises an object", function()
        error(setmetatable({}, {__tostring = function() while true do end end}))
      end)
      test("runs after it", function() assert(true) end)
      """)
    let process = try RunningRelua(["test", "."], currentDirectory: dir.url)
    let result = process.finish(seconds: 30)
    XCTAssertEqual(result.exitCode, 1, "it hung, or: \(result.stdout)")
    XCTAssertTrue(result.stdout.contains(
      "object_test.lua:2: (error object is a table; its __tostring failed: it ran past 1000000 instructions)"), result.stdout)
    XCTAssertTrue(result.stdout.contains("PASS runs after it"), result.stdout)
  }
}
