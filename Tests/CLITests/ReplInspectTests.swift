import XCTest

/// `relua repl FILE --inspect [PORT]`: the inspector's address printed first; its option taken out
/// of the script's words; nothing served without it.
final class ReplInspectTests: XCTestCase {
  private static let feature = """
    local relua = require "relua"
    return relua.feature "Tally" {
      state = { count = 0 },
      actions = { increment = {} },
      reduce = relua.on { increment = function(s) s.count = s.count + 1 end },
    }
    """

  func testInspectPrintsTheAddressWithItsTokenBeforeTheScreen() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("Tally.lua", Self.feature)
    let result = try ReluaProcess.run(["repl", file, "--inspect"], stdin: ":increment\n")
    XCTAssertEqual(result.exitCode, 0, result.stderr)
    let first = result.stdout.split(separator: "\n").first.map(String.init) ?? ""
    XCTAssertNotNil(first.wholeMatch(of: /Inspector: http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32}/), result.stdout)
    XCTAssertTrue(result.stdout.contains("count = 1"), result.stdout)
  }

  func testInspectAndItsPortBelongToReluaAnywhereBeforeADoubleDash() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("Tally.lua", Self.feature)
    for words in [[file, "--inspect", "0", "a", "b"], [file, "a", "--inspect=0", "b"], ["--inspect", file, "a", "b"]] {
      let result = try ReluaProcess.run(["repl"] + words, stdin: "=table.concat(arg, ',')\n")
      XCTAssertEqual(result.exitCode, 0, result.stderr)
      XCTAssertTrue(result.stdout.hasPrefix("Inspector: http://127.0.0.1:"), "\(words): \(result.stdout)")
      XCTAssertTrue(result.stdout.hasSuffix("a,b\n"), "\(words): \(result.stdout)")
    }
    // After a --, it is the script's.
    let theScripts = try ReluaProcess.run(["repl", "--", file, "--inspect"], stdin: "=arg[1]\n")
    XCTAssertFalse(theScripts.stdout.contains("Inspector"), theScripts.stdout)
    XCTAssertTrue(theScripts.stdout.hasSuffix("--inspect\n"), theScripts.stdout)
  }

  func testWithoutInspectNothingIsServedOrPrinted() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("Tally.lua", Self.feature)
    let result = try ReluaProcess.run(["repl", file], stdin: ":increment\n")
    XCTAssertEqual(result.exitCode, 0, result.stderr)
    XCTAssertFalse(result.stdout.contains("Inspector"), result.stdout)
  }

  func testABadPortIsAnError() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("Tally.lua", Self.feature)
    let result = try ReluaProcess.run(["repl", file, "--inspect", "70000"], stdin: "")
    XCTAssertNotEqual(result.exitCode, 0)
    XCTAssertTrue(result.stderr.contains("--inspect's port must be a number from 0 to 65535, not '70000'"), result.stderr)
  }
}
