import XCTest

/// `relua test` with screen snapshots, as a user runs it: the first run writes them and says so,
/// a changed view fails with the diff, `--update-snapshots` rewrites only what changed.
final class TestCommandSnapshotTests: XCTestCase {
  private func suite(_ view: String) -> String {
    """
    local relua = require "relua"
    local Counter = relua.feature "Counter" { state = { count = 0 }, view = function(s) return "\(view) " .. s.count end }
    local Other = relua.feature "Other" { state = { on = true }, view = function() return "other" end }
    test("counter", function() assert.screen(relua.TestStore(Counter)) end)
    test("other", function() assert.screen(relua.TestStore(Other)) end)
    """
  }

  func testWriteCompareAndUpdate() throws {
    let dir = try ScriptDirectory()
    try dir.write("screens_test.lua", suite("Count:"))
    let first = try ReluaProcess.run(["test", "."], currentDirectory: dir.url, environment: ["NO_COLOR": "1"])
    XCTAssertEqual(first.exitCode, 0, first.stdout + first.stderr)
    XCTAssertEqual(first.stdout, """
      PASS counter
          note: snapshot written: __snapshots__/screens_test.lua/counter.txt
      PASS other
          note: snapshot written: __snapshots__/screens_test.lua/other.txt

      2 passed, 0 failed
      Snapshots: 2 written

      """)
    let second = try ReluaProcess.run(["test", "."], currentDirectory: dir.url)
    XCTAssertEqual(second.stdout, "PASS counter\nPASS other\n\n2 passed, 0 failed\n")

    try dir.write("screens_test.lua", suite("Total:"))
    let changed = try ReluaProcess.run(["test", "."], currentDirectory: dir.url)
    XCTAssertEqual(changed.exitCode, 1)
    XCTAssertTrue(changed.stdout.contains("""
         screens_test.lua:4: the screen does not match its snapshot __snapshots__/screens_test.lua/counter.txt:
         
             ── Counter ──
           − Count: 0
           + Total: 0
         
         (Expected: −, Actual: +; relua test --update-snapshots takes the new screen)
      """), changed.stdout)

    let updated = try ReluaProcess.run(["test", ".", "--update-snapshots"], currentDirectory: dir.url)
    XCTAssertEqual(updated.exitCode, 0)
    XCTAssertEqual(updated.stdout, """
      PASS counter
          note: snapshot updated: __snapshots__/screens_test.lua/counter.txt
      PASS other

      2 passed, 0 failed
      Snapshots: 1 updated

      """)
    let stored = try String(contentsOf: dir.url.appendingPathComponent("__snapshots__/screens_test.lua/counter.txt"), encoding: .utf8)
    XCTAssertEqual(stored, "── Counter ──\nTotal: 0\n")
  }
}
