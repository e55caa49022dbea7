import Foundation
import Lua
import XCTest

@testable import Relua
@testable import ReluaTesting

/// `LuaTestConfiguration.coverage` and `LuaTestCoverageReport`: the lines test states run, as an
/// lcov tracefile; files by paths relative to the run's directory, merged when reached by two
/// names; files gone by report time left out, saying so.
@MainActor
final class LuaTestCoverageReportTests: XCTestCase {
  func testTheTestsStatesCountNotTheLoadThatListsTheTests() async throws {
    let directory = try LuaTestDirectory()
    try directory.write("spec/shout.lua", """
      local M = {}
      function M.shout(text)
        return text:upper() .. "!"
      end
      function M.whisper(text)
        return text:lower()
      end
      return M
      """)
    try directory.write("spec/shout_spec.lua", """
      local shout = require("shout").shout
      it("shouts", function()
        assert.are.equal("HI!", shout("hi"))
      end)
      """)
    let coverage = LuaCoverage()
    let (summary, report) = await directory.inside {
      let summary = await LuaTestRunner(configuration: LuaTestConfiguration(coverage: coverage)).run(paths: ["spec"])
      return (summary, LuaTestCoverageReport(coverage))
    }
    XCTAssertEqual(summary.closingLine, "1 passed, 0 failed")
    // One test: one state ran each file's main chunk, though the runner loaded the spec once more
    // to list its tests. `whisper` never ran. A function's `end` line is where its closure is
    // made (shout.lua 4: `shout` returns before its end); the spec's line 2 counts again when its
    // `it` is called, and its last line is also the main chunk's return (4: closure, the test
    // body's return, the chunk's).
    XCTAssertEqual(report.lcov, """
      TN:
      SF:spec/shout.lua
      DA:1,1
      DA:2,1
      DA:3,1
      DA:4,1
      DA:5,1
      DA:6,0
      DA:7,1
      DA:8,1
      LF:8
      LH:7
      end_of_record
      TN:
      SF:spec/shout_spec.lua
      DA:1,1
      DA:2,2
      DA:3,1
      DA:4,3
      LF:4
      LH:4
      end_of_record

      """)
    XCTAssertEqual(report.summary, "Coverage: 91.7% of 12 lines (11 run) in 2 files")
    XCTAssertTrue(report.skipped.isEmpty)
  }

  func testPathsAreRelativeToTheDirectoryAndMergedAndGoneFilesAreLeftOut() async throws {
    let directory = try LuaTestDirectory()
    let elsewhere = try LuaTestDirectory()
    let inside = try directory.write("lib/one.lua", "local x = 1\nreturn x\n")
    let outside = try elsewhere.write("two.lua", "return 2\n")
    let gone = try directory.write("gone.lua", "return 3\n")
    let coverage = LuaCoverage()
    let state = try LuaState(options: LuaOptions(coverage: coverage))
    // lib/one.lua by an absolute and by a relative chunk name: one file.
    _ = try state.execute(file: inside)
    _ = try await directory.inside { try state.execute(file: "lib/one.lua") }
    _ = try state.execute(file: outside)
    _ = try state.execute(file: gone)
    _ = try state.execute("return 4", name: "=text")
    state.close()
    try FileManager.default.removeItem(atPath: gone)

    let report = LuaTestCoverageReport(coverage, relativeTo: directory.path)
    XCTAssertEqual(report.files.map(\.path), [outside, "lib/one.lua"])
    XCTAssertEqual(report.files.last?.lines.map(\.hits), [2, 2])
    XCTAssertEqual(report.skipped.map(\.path), ["gone.lua"])
    XCTAssertTrue(report.skipped.first?.reason.contains("gone.lua") ?? false, "\(report.skipped)")
  }
}
