import Foundation
import XCTest

@testable import Relua
@testable import ReluaTesting

/// The tree half of screen snapshots: a screen whose view is a tree is stored as `<name>.json`
/// beside its `<name>.txt` (pretty, keys sorted), written on the first run, compared afterwards
/// with a line diff of its own, and rewritten alone under `--update-snapshots` when only the tree
/// changed. Alerts, views that are only text and features without a view store no tree.
@MainActor
final class LuaTestTreeSnapshotTests: XCTestCase {
  /// A suite whose Counter view is a tree with an image at `imageURL` (a terminal shows only its
  /// alt text, so changing the URL changes the tree and not the text).
  private func suite(imageURL: String = "https://example.com/a.png") -> String {
    """
    local relua = require "relua"
    local ui = relua.ui
    local Counter = relua.feature "Counter" {
      state = { count = 0, alert = nil },
      actions = { increment = {}, ask = {} },
      compose = { relua.presents("alert", relua.alert {}) },
      reduce = relua.on {
        increment = function(s) s.count = s.count + 1 end,
        ask = function(s) s.alert = { title = "Sure?", buttons = { { label = "OK" } } } end,
      },
      view = function(s)
        return ui.vstack { ui.text("Count: " .. s.count), ui.button("+", "increment"), ui.image("\(imageURL)", "logo") }
      end,
    }
    local Plain = relua.feature "Plain" { state = {}, view = function() return "plain" end }
    test("counter", function()
      local store = relua.TestStore(Counter)
      store:exhaustive(false)
      assert.screen(store)
      store:send("ask")
      assert.screen(store, "alert")
    end)
    test("plain", function() assert.screen(relua.TestStore(Plain)) end)
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

  func testTheFirstRunWritesTheTreeBesideTheTextOnlyForATree() async throws {
    let directory = try LuaTestDirectory()
    try directory.write("screens_test.lua", suite())
    let (first, snapshots) = await run(directory)
    XCTAssertEqual(first.failed, 0, "\(first.results.compactMap(\.failure))")
    XCTAssertEqual(first.results.map(\.notes), [
      ["snapshot written: __snapshots__/screens_test.lua/counter.txt",
       "snapshot written: __snapshots__/screens_test.lua/counter.json",
       "snapshot written: __snapshots__/screens_test.lua/counter.alert.txt"],
      ["snapshot written: __snapshots__/screens_test.lua/plain.txt"],
    ])
    XCTAssertEqual(snapshots.written.count, 4)
    let tree = try read(directory, "counter.json")
    XCTAssertTrue(tree.hasPrefix("{\n  \"children\" : [\n"), tree)
    XCTAssertTrue(tree.contains("\"path\" : \"increment\""), tree)
    XCTAssertTrue(tree.contains("\"url\" : \"https://example.com/a.png\""), tree)
    XCTAssertTrue(tree.hasSuffix("}\n"), tree)
    let entries = try FileManager.default.contentsOfDirectory(atPath: directory.path + "/__snapshots__/screens_test.lua")
    XCTAssertEqual(entries.sorted(), ["counter.alert.txt", "counter.json", "counter.txt", "plain.txt"])

    let (second, again) = await run(directory)
    XCTAssertEqual(second.passed, 2)
    XCTAssertEqual(again.written, [])
  }

  func testAChangedTreeFailsWithALineDiffOfItsJSON() async throws {
    let directory = try LuaTestDirectory()
    try directory.write("screens_test.lua", suite())
    _ = await run(directory)
    try directory.write("screens_test.lua", suite(imageURL: "https://example.com/b.png"))
    let (summary, _) = await run(directory)
    XCTAssertEqual(summary.results.map { $0.outcome == .passed }, [false, true])
    let failure = try XCTUnwrap(summary.results.first?.failure)
    XCTAssertEqual(failure.location, "screens_test.lua:19")
    XCTAssertTrue(failure.message.hasPrefix(
      "the screen's tree does not match its snapshot __snapshots__/screens_test.lua/counter.json:\n"), failure.message)
    XCTAssertTrue(failure.message.contains("−       \"url\" : \"https://example.com/a.png\""), failure.message)
    XCTAssertTrue(failure.message.contains("+       \"url\" : \"https://example.com/b.png\""), failure.message)
    XCTAssertTrue(failure.message.hasSuffix("(Expected: −, Actual: +; relua test --update-snapshots takes the new screen)"))
    XCTAssertFalse(failure.message.contains("counter.txt"), "the text matched: \(failure.message)")
    XCTAssertTrue(try read(directory, "counter.json").contains("a.png"))
  }

  func testUpdatingRewritesOnlyTheChangedTree() async throws {
    let directory = try LuaTestDirectory()
    try directory.write("screens_test.lua", suite())
    _ = await run(directory)
    let text = directory.path + "/__snapshots__/screens_test.lua/counter.txt"
    let before = try FileManager.default.attributesOfItem(atPath: text)[.modificationDate] as? Date
    try directory.write("screens_test.lua", suite(imageURL: "https://example.com/b.png"))
    let (summary, snapshots) = await run(directory, updates: true)
    XCTAssertEqual(summary.failed, 0)
    XCTAssertEqual(snapshots.updated, ["__snapshots__/screens_test.lua/counter.json"])
    XCTAssertEqual(summary.results.first?.notes, ["snapshot updated: __snapshots__/screens_test.lua/counter.json"])
    XCTAssertTrue(try read(directory, "counter.json").contains("b.png"))
    let after = try FileManager.default.attributesOfItem(atPath: text)[.modificationDate] as? Date
    XCTAssertEqual(before, after)
    let (next, _) = await run(directory)
    XCTAssertEqual(next.passed, 2)
  }
}
