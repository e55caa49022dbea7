import Foundation
import Lua
import XCTest

@testable import Relua
@testable import ReluaTesting

/// `LuaTestConfiguration.testTimeout` (#31): with no instruction limit at all, the wall clock alone
/// stops a test spinning in pure Lua — in its body, under `pcall`, or in a file's top-level code —
/// and the tests after it run. (Tests/CLITests/TestCommandHardeningTests has the waits and the
/// hooks, through the binary.)
@MainActor
final class LuaTestTimeoutTests: XCTestCase {
  func testTheWallClockStopsPureLuaWithNoInstructionLimit() async throws {
    let directory = try LuaTestDirectory()
    try directory.write("a_spin_test.lua", """
      test("spins", function() while true do end end)
      test("spins under pcall", function()
        while true do pcall(function() while true do end end) end
      end)
      test("after", function() end)
      """)
    try directory.write("b_load_test.lua", """
      while true do end
      """)
    try directory.write("c_fine_test.lua", """
      test("fine", function() end)
      """)
    let started = Date()
    let summary = await directory.inside {
      await LuaTestRunner(configuration: LuaTestConfiguration(instructionLimit: nil, testTimeout: 0.3)).run(paths: ["."])
    }
    XCTAssertLessThan(Date().timeIntervalSince(started), 20)
    XCTAssertEqual(summary.closingLine, "2 passed, 3 failed")
    let failures = summary.results.compactMap { result in result.failure.map { (result.name, $0) } }
    XCTAssertEqual(failures.map(\.0), ["spins", "spins under pcall", "b_load_test.lua"])
    XCTAssertEqual(failures[0].1.description, "a_spin_test.lua:1: test timed out after 0.3 s in its body (the wall-clock limit per test, --test-timeout)")
    XCTAssertEqual(failures[1].1.location, "a_spin_test.lua:3")
    XCTAssertEqual(failures[2].1.description, "b_load_test.lua:1: test timed out after 0.3 s in loading the file (the wall-clock limit per test, --test-timeout)")
  }

  func testNoLimitIsNone() async throws {
    let directory = try LuaTestDirectory()
    try directory.write("quick_test.lua", """
      test("counts", function() local n = 0; for i = 1, 1000000 do n = n + i end; assert(n > 0) end)
      """)
    let summary = await directory.inside {
      await LuaTestRunner(configuration: LuaTestConfiguration(testTimeout: 0)).run(paths: ["."])
    }
    XCTAssertEqual(summary.closingLine, "1 passed, 0 failed")
  }
}
