import XCTest

/// `relua run`'s own options after FILE, Ctrl-C, and errors whose text the script computes.
final class RunCommandOptionsTests: XCTestCase {
  func testOwnOptionsAfterTheFileAreHonoured() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("spin.lua", "print(...) while true do end")
    // (Killed after 20 s: without the limit the script spins for ever.)
    let limited = try RunningRelua(["run", file, "one", "--instruction-limit", "100000"]).finish(seconds: 20)
    XCTAssertEqual(limited.exitCode, 1, limited.stderr)
    XCTAssertEqual(limited.stdout, "one\n", "the option is relua's, not the script's")
    XCTAssertTrue(limited.stderr.contains("spin.lua:1: instruction budget exhausted"), limited.stderr)
    let attached = try RunningRelua(["run", file, "--instruction-limit=100000"]).finish(seconds: 20)
    XCTAssertTrue(attached.stderr.contains("instruction budget exhausted"), attached.stderr)

    let probe = try dir.write("probe.lua", "print(type(io), ...)")
    let trusted = try ReluaProcess.run(["run", probe, "a", "--trusted", "b"])
    XCTAssertEqual(trusted.exitCode, 0, trusted.stderr)
    XCTAssertEqual(trusted.stdout, "table\ta\tb\n")
  }

  func testEverythingAfterDoubleDashGoesToTheScript() throws {
    let dir = try ScriptDirectory()
    let probe = try dir.write("probe.lua", "print(type(io), select('#', ...), ...)")
    let result = try ReluaProcess.run(["run", probe, "a", "--", "--trusted", "--instruction-limit", "5", "--"])
    XCTAssertEqual(result.exitCode, 0, result.stderr)
    XCTAssertEqual(result.stdout, "nil\t5\ta\t--trusted\t--instruction-limit\t5\t--\n")
    let before = try ReluaProcess.run(["run", "--", probe, "--trusted"])
    XCTAssertEqual(before.exitCode, 0, before.stderr)
    XCTAssertEqual(before.stdout, "nil\t1\t--trusted\n", "a -- before FILE ends relua's options too")
  }

  func testABadOwnOptionAfterTheFileIsAUsageError() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("ok.lua", "print('ran')")
    let result = try ReluaProcess.run(["run", file, "--memory-limit", "lots"])
    XCTAssertNotEqual(result.exitCode, 0)
    XCTAssertEqual(result.stdout, "")
    XCTAssertTrue(result.stderr.contains("'lots' is invalid for '--memory-limit'"), result.stderr)
  }

  func testAnErrorObjectWhoseTostringLoopsIsDescribedWithinABudget() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("obj.lua", "error(setmetatable({}, {__tostring = function() while true do end end}))")
    let process = try RunningRelua(["run", file])
    let result = process.finish(seconds: 20)
    XCTAssertEqual(result.exitCode, 1, "it hung, or: \(result.stderr)")
    XCTAssertTrue(result.stderr.contains(
      "relua: (error object is a table; its __tostring failed: it ran past 1000000 instructions)"), result.stderr)
    XCTAssertTrue(result.stderr.contains("obj.lua:1: in main chunk"), result.stderr)

    let failing = try dir.write("fails.lua", "error(setmetatable({}, {__tostring = function() error('no words') end}))")
    let failed = try ReluaProcess.run(["run", failing])
    XCTAssertEqual(failed.exitCode, 1)
    XCTAssertTrue(failed.stderr.contains(
      "relua: (error object is a table; its __tostring failed: "), failed.stderr)
    XCTAssertTrue(failed.stderr.contains("fails.lua:1: no words)"), failed.stderr)
  }

  func testCtrlCStopsARunawayScriptWithItsLineAndTraceback() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("spin.lua", """
      print("spinning")
      local function spin() while true do end end
      spin()
      """)
    let process = try RunningRelua(["run", file])
    XCTAssertTrue(process.waitForOutput(containing: "spinning"), process.stderr)
    Thread.sleep(forTimeInterval: 0.2)
    process.process.interrupt()
    let result = process.finish(seconds: 20)
    XCTAssertEqual(result.exitCode, 130, result.stderr)
    XCTAssertEqual(process.process.terminationReason, .exit, "relua reported the interrupt itself")
    XCTAssertTrue(result.stderr.hasPrefix("relua: "), result.stderr)
    XCTAssertTrue(result.stderr.contains("spin.lua:2: interrupted!\nstack traceback:"), result.stderr)
    XCTAssertTrue(result.stderr.contains("spin.lua:3: in main chunk"), result.stderr)
  }
}
