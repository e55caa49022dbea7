import Foundation
import XCTest

@testable import Relua
@testable import ReluaTesting

/// Screen snapshots in `relua test` (`assert.screen`, `expect(store):to_match_screen`): written on
/// the first run, compared afterwards with a line diff, rewritten only where they differ under
/// `--update-snapshots`, and only under the test file's directory.
@MainActor
final class LuaTestSnapshotTests: XCTestCase {
  /// A suite of two tests; `label` is what the counter's view says before the count.
  private func suite(label: String = "Count", body: String = "") -> String {
    """
    local relua = require "relua"
    local Counter = relua.feature "Counter" {
      state = { count = 0 },
      actions = { increment = {} },
      reduce = relua.on { increment = function(s) s.count = s.count + 1 end },
      view = function(s) return ("\(label): %d\\n[+ :increment]"):format(s.count) end,
    }
    local Plain = relua.feature "Plain" { state = { name = "x" } }
    test("counter", function()
      local store = relua.TestStore(Counter)
      assert.screen(store)
      store:send("increment", function(s) s.count = 1 end)
      expect(store):to_match_screen("after one")
    end)
    test("plain live", function()
      assert.screen(relua.Store(Plain))
    end)
    \(body)
    """
  }

  private func run(_ directory: LuaTestDirectory, updates: Bool = false) async -> (LuaTestSummary, LuaTestSnapshots) {
    await directory.inside {
      let runner = LuaTestRunner(configuration: LuaTestConfiguration())
      runner.configuration.updateSnapshots = updates
      let summary = await runner.run(paths: ["."])
      return (summary, runner.snapshots)
    }
  }

  private func read(_ directory: LuaTestDirectory, _ name: String) throws -> String {
    try String(contentsOfFile: directory.path + "/__snapshots__/screens_test.lua/" + name, encoding: .utf8)
  }

  func testTheFirstRunWritesAndSaysSoTheSecondPasses() async throws {
    let directory = try LuaTestDirectory()
    try directory.write("screens_test.lua", suite())
    let (first, snapshots) = await run(directory)
    XCTAssertEqual(first.failed, 0, "\(first.results.compactMap(\.failure))")
    XCTAssertEqual(first.results.map(\.notes), [
      ["snapshot written: __snapshots__/screens_test.lua/counter.txt",
       "snapshot written: __snapshots__/screens_test.lua/counter.after one.txt"],
      ["snapshot written: __snapshots__/screens_test.lua/plain live.txt"],
    ])
    XCTAssertEqual(snapshots.written.count, 3)
    XCTAssertEqual(try read(directory, "counter.txt"), "── Counter ──\nCount: 0\n[+ :increment]\n")
    XCTAssertEqual(try read(directory, "counter.after one.txt"), "── Counter ──\nCount: 1\n[+ :increment]\n")
    // A feature without a view shows its state, as the REPL does.
    XCTAssertEqual(try read(directory, "plain live.txt"), "── Plain ──\n{ name = \"x\" }\n")

    let (second, again) = await run(directory)
    XCTAssertEqual(second.passed, 2)
    XCTAssertEqual(second.results.map(\.notes), [[], []])
    XCTAssertEqual(again.written, [])
  }

  func testAChangedViewFailsWithALineDiff() async throws {
    let directory = try LuaTestDirectory()
    try directory.write("screens_test.lua", suite())
    _ = await run(directory)
    try directory.write("screens_test.lua", suite(label: "Total"))
    let (summary, _) = await run(directory)
    XCTAssertEqual(summary.results.map { $0.outcome == .passed }, [false, true])
    let failure = try XCTUnwrap(summary.results.first?.failure)
    XCTAssertEqual(failure.location, "screens_test.lua:11")
    XCTAssertEqual(failure.message, """
      the screen does not match its snapshot __snapshots__/screens_test.lua/counter.txt:

          ── Counter ──
        − Count: 0
        + Total: 0
          [+ :increment]

      (Expected: −, Actual: +; relua test --update-snapshots takes the new screen)
      """)
    // The file is left as it was.
    XCTAssertEqual(try read(directory, "counter.txt"), "── Counter ──\nCount: 0\n[+ :increment]\n")
  }

  func testUpdatingRewritesOnlyWhatChanged() async throws {
    let directory = try LuaTestDirectory()
    try directory.write("screens_test.lua", suite())
    _ = await run(directory)
    let plain = directory.path + "/__snapshots__/screens_test.lua/plain live.txt"
    let before = try FileManager.default.attributesOfItem(atPath: plain)[.modificationDate] as? Date
    try directory.write("screens_test.lua", suite(label: "Total"))
    let (summary, snapshots) = await run(directory, updates: true)
    XCTAssertEqual(summary.failed, 0)
    XCTAssertEqual(snapshots.updated, [
      "__snapshots__/screens_test.lua/counter.txt", "__snapshots__/screens_test.lua/counter.after one.txt",
    ])
    XCTAssertEqual(summary.results.first?.notes, [
      "snapshot updated: __snapshots__/screens_test.lua/counter.txt",
      "snapshot updated: __snapshots__/screens_test.lua/counter.after one.txt",
    ])
    XCTAssertEqual(try read(directory, "counter.txt"), "── Counter ──\nTotal: 0\n[+ :increment]\n")
    let after = try FileManager.default.attributesOfItem(atPath: plain)[.modificationDate] as? Date
    XCTAssertEqual(before, after)
    let (next, _) = await run(directory)
    XCTAssertEqual(next.passed, 2)
  }

  func testSeveralSnapshotsInATestAreCounted() async throws {
    let directory = try LuaTestDirectory()
    try directory.write("screens_test.lua", suite(body: """
      describe("a / b", function()
        it("twice", function()
          local store = relua.TestStore(Counter)
          assert.screen(store)
          assert.screen(store)
          expect(store).to_match_screen()
        end)
      end)
      """))
    let (summary, _) = await run(directory)
    XCTAssertEqual(summary.failed, 0)
    XCTAssertEqual(summary.results.last?.notes, [
      "snapshot written: __snapshots__/screens_test.lua/a _ b twice.txt",
      "snapshot written: __snapshots__/screens_test.lua/a _ b twice.2.txt",
      "snapshot written: __snapshots__/screens_test.lua/a _ b twice.3.txt",
    ])
  }

  func testNamesThatLeaveTheFolderAreRefused() async throws {
    let directory = try LuaTestDirectory()
    try directory.write("sub/screens_test.lua", suite(body: """
      test("escapes", function() assert.screen(relua.TestStore(Counter), "../../outside") end)
      test("slash", function() assert.screen(relua.TestStore(Counter), "a/b") end)
      test("twice", function()
        assert.screen(relua.TestStore(Counter), "same")
        assert.screen(relua.TestStore(Counter), "same")
      end)
      test("not a store", function() assert.screen({}) end)
      """))
    let (summary, _) = await run(directory)
    let messages = summary.results.dropFirst(2).map { $0.failure?.message }
    XCTAssertEqual(messages, [
      #"a snapshot's name is a file name (up to 100 bytes, no '/', '\', leading '.' or control characters): got "../../outside""#,
      #"a snapshot's name is a file name (up to 100 bytes, no '/', '\', leading '.' or control characters): got "a/b""#,
      "the snapshot 'same' was already taken in this test (names are unique per test)",
      "a screen snapshot takes a store (relua.Store or relua.TestStore), got table",
    ])
    XCTAssertEqual(summary.results.dropFirst(2).map(\.failure?.location), [
      "sub/screens_test.lua:18", "sub/screens_test.lua:19", "sub/screens_test.lua:22", "sub/screens_test.lua:24",
    ])
    let entries = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    XCTAssertEqual(entries.sorted(), ["sub"])
  }

  func testASnapshotsFolderThatIsALinkIsRefused() async throws {
    let directory = try LuaTestDirectory()
    let elsewhere = try LuaTestDirectory()
    try directory.write("screens_test.lua", suite())
    try FileManager.default.createSymbolicLink(atPath: directory.path + "/__snapshots__", withDestinationPath: elsewhere.path)
    let (summary, _) = await run(directory)
    XCTAssertEqual(summary.results.first?.failure?.message,
      "__snapshots__ is a symbolic link: snapshots are written only under the test file's directory")
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])
  }

  func testALineDiffSumsUpFarUnchangedLines() {
    let old = (1...10).map { "line \($0)" }.joined(separator: "\n")
    let new = old.replacingOccurrences(of: "line 8", with: "line eight")
    XCTAssertEqual(TextLineDiff.lines(from: old, to: new), """
        … (4 unchanged lines)
        line 5
        line 6
        line 7
      − line 8
      + line eight
        line 9
        line 10
      """)
    XCTAssertNil(TextLineDiff.lines(from: old, to: old))
  }
}
