import Foundation
import XCTest

@testable import Relua

/// The forEach reader's incremental read: one changed element of 100 redraws one row in place;
/// a reorder, an insert, a remove, a replaced collection and a reloaded feature fall back to
/// matching every row, and each read's tree is the tree a fresh runtime reads from the state.
@MainActor
final class ReluaViewForEachIncrementalTests: XCTestCase {
  static let feature = """
    local relua = require "relua"
    local ui = relua.ui
    local Row = relua.feature "Row" {
      state = { id = 0, title = "", n = 0 },
      actions = { rename = "string", grow = "integer" },
      reduce = relua.on {
        rename = function(s, title) s.title = title end,
        grow = function(s, by) s.n = s.n + by end,
      },
      view = function(row)
        local lines = { ui.text(row.title), ui.button("Rename", "rename", "x") }
        for i = 1, row.n do lines[#lines + 1] = ui.text("line " .. i) end
        return ui.vstack(lines)
      end,
    }
    local function rows(count, first, n)
      local list = {}
      for i = 1, count do list[i] = { id = first + i - 1, title = "Row " .. (first + i - 1), n = n } end
      return list
    end
    return relua.feature "List" {
      state = { rows = relua.identified(rows(100, 1, 0)) },
      actions = { reverse = {}, insert = {}, removeFirst = {}, replaceAll = {}, fill = "integer" },
      compose = { relua.forEach("rows", Row) },
      reduce = relua.on {
        reverse = function(s)
          local n = #s.rows
          for i = 1, n // 2 do s.rows[i], s.rows[n + 1 - i] = s.rows[n + 1 - i], s.rows[i] end
        end,
        insert = function(s) table.insert(s.rows, 50, { id = 1000, title = "New", n = 0 }) end,
        removeFirst = function(s) table.remove(s.rows, 1) end,
        replaceAll = function(s) s.rows = rows(#s.rows, 5000, 0) end,
        fill = function(s, n) s.rows = rows(100, 1, n) end,
      },
      view = function() return ui.vstack { ui.text("Rows"), ui.forEach("rows", Row) } end,
    }
    """

  private var relua: ReluaRuntime!
  private var store: ReluaStore!
  private var tree: ReluaViewNode!

  override func setUp() async throws {
    relua = try ReluaRuntime()
    store = try relua.makeStore(try relua.loadFeature(source: Self.feature, name: "List.lua"))
    tree = try XCTUnwrap(try store.topView())
  }

  /// Sends `action`, reads the tree again: how many rows it drew, after checking the tree is a
  /// fresh runtime's and the diff from the last tree applies to it.
  private func drawnAfter(_ action: String, _ payload: Value = .null, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
    let drawnBefore = relua.host.viewRowCache.drawn
    try store.send(action, payload)
    let next = try XCTUnwrap(try store.topView())
    let fresh = try ReluaRuntime()
    let freshTree = try fresh.makeStore(try fresh.loadFeature(source: Self.feature, name: "List.lua"), state: store.state).topView()
    XCTAssertEqual(next, freshTree, "after \(action)", file: file, line: line)
    XCTAssertEqual(try tree.applying(ReluaViewPatch.changes(from: tree, to: next)), next, "after \(action)", file: file, line: line)
    tree = next
    return relua.host.viewRowCache.drawn - drawnBefore
  }

  func testOneChangedElementOfAHundredDrawsOneRow() async throws {
    XCTAssertEqual(relua.host.viewRowCache.drawn, 100)
    let examined = relua.host.viewRowCache.examined
    XCTAssertEqual(try drawnAfter("rows[id=40].rename", .string("Forty")), 1)
    // The other 99 elements were found unchanged by their bits alone, no one looked at.
    XCTAssertEqual(relua.host.viewRowCache.examined - examined, 1)
    XCTAssertEqual(try drawnAfter("rows[id=1].rename", .string("One")), 1)
    XCTAssertEqual(try drawnAfter("rows[id=100].rename", .string("Hundred")), 1)
    let before = try XCTUnwrap(tree)
    XCTAssertEqual(try drawnAfter("rows[id=33].rename", .string("Thirty-three")), 1)
    XCTAssertEqual(ReluaViewPatch.changes(from: before, to: tree), [.replace(at: [1, 32, 0], node: .text("Thirty-three"))])
    // Read in place: the new rows share every chunk with the last read's but the changed row's.
    guard case .vstack(let old) = before, case .list(let oldRows) = old[1], case .vstack(let new) = tree, case .list(let newRows) = new[1] else {
      return XCTFail("not the list drawn: \(tree!)")
    }
    XCTAssertEqual(oldRows.positionsNotShared(with: newRows), [32..<64])
    // No change: nothing drawn, the same rows.
    XCTAssertEqual(try XCTUnwrap(try store.topView()), tree)
    XCTAssertEqual(relua.host.viewRowCache.drawn, 104)
  }

  func testReorderInsertRemoveAndReplaceFallBack() async throws {
    XCTAssertEqual(try drawnAfter("reverse"), 0, "moved rows are found by id")
    XCTAssertEqual(try drawnAfter("insert"), 1)
    XCTAssertEqual(try drawnAfter("removeFirst"), 0)
    XCTAssertEqual(try drawnAfter("rows[id=7].rename", .string("Seven")), 1)
    XCTAssertEqual(try drawnAfter("replaceAll"), 100, "new ids at every place: every row drawn")
    XCTAssertEqual(try drawnAfter("rows[id=5007].rename", .string("Changed")), 1)
    XCTAssertEqual(try drawnAfter("fill", .integer(0)), 100, "ids 1…100 again: every row drawn")
    XCTAssertEqual(try drawnAfter("fill", .integer(1)), 100, "the same ids, every element changed: each drawn in place")
  }

  /// The rows found from the collection's write log: many writes between two reads (more than
  /// the log keeps), and a store of the same feature whose state went another way (its log does
  /// not have the last read's write: every element is compared) or the same way further (only
  /// its own writes are drawn) — each read's tree a fresh runtime's.
  func testTheWriteLogIsTrustedOnlyForTheHistoryItSaw() async throws {
    XCTAssertEqual(try drawnAfter("rows[id=40].rename", .string("Forty")), 1)
    for id in 1...ElementWriteLog.capacity { try store.send("rows[id=\(id)].grow", .integer(1)) }
    XCTAssertEqual(try drawnAfter("rows[id=70].rename", .string("Seventy")), ElementWriteLog.capacity + 1)

    let before = store.state
    XCTAssertEqual(try drawnAfter("rows[id=10].rename", .string("Ten")), 1)
    // Another store of the same feature and place shares the rows drawn; its state is the one
    // before "Ten", written elsewhere.
    let other = try relua.makeStore(store.feature, state: before)
    try other.send("rows[id=11].rename", .string("Eleven"))
    let drawnBefore = relua.host.viewRowCache.drawn
    let otherTree = try XCTUnwrap(try other.topView())
    let fresh = try ReluaRuntime()
    XCTAssertEqual(otherTree, try fresh.makeStore(try fresh.loadFeature(source: Self.feature, name: "List.lua"), state: other.state).topView())
    XCTAssertEqual(relua.host.viewRowCache.drawn - drawnBefore, 2, "row 10 back as it was, row 11: the rows compared")
    guard case .vstack(let nodes) = otherTree, case .list(let rows) = nodes[1] else { return XCTFail("\(otherTree)") }
    XCTAssertEqual(rows[9].content.allNodes.first { if case .text = $0 { true } else { false } }, .text("Row 10"))

    // A store whose state went through the last read's: only its own write is drawn.
    let further = try relua.makeStore(store.feature, state: other.state)
    try further.send("rows[id=12].rename", .string("Twelve"))
    let examined = relua.host.viewRowCache.examined
    let furtherTree = try XCTUnwrap(try further.topView())
    XCTAssertEqual(furtherTree, try fresh.makeStore(try fresh.loadFeature(source: Self.feature, name: "List.lua"), state: further.state).topView())
    XCTAssertEqual(relua.host.viewRowCache.examined - examined, 1)
  }

  func testAReloadedFeatureDrawsEveryRow() async throws {
    let reloaded = try relua.makeStore(try relua.loadFeature(source: Self.feature, name: "List.lua"), state: store.state)
    let drawnBefore = relua.host.viewRowCache.drawn
    XCTAssertEqual(try reloaded.topView(), tree)
    XCTAssertEqual(relua.host.viewRowCache.drawn - drawnBefore, 100)
  }

  func testTheNodeLimitHoldsWhenOneRowGrows() async throws {
    // 100 rows of 1,993 nodes (a vstack, a text, a button, 1,990 lines): 199,300, and the
    // screen's vstack, its text and the forEach node. One row 1,000 lines longer is over 200,000.
    XCTAssertEqual(try drawnAfter("fill", .integer(1_990)), 100)
    try store.send("rows[id=50].grow", .integer(1_000))
    XCTAssertThrowsError(try store.topView()) { error in
      XCTAssertTrue("\(error)".contains("has more than 200000 nodes"), "\(error)")
    }
    try store.send("rows[id=50].grow", .integer(-1_000))
    XCTAssertEqual(try XCTUnwrap(try store.topView()), tree)
  }

  func testTheNodeLimitFailsAForEachOverTooManyNodes() async throws {
    try store.send("fill", .integer(2_100))
    XCTAssertThrowsError(try store.topView()) { error in
      XCTAssertTrue("\(error)".contains("has more than 200000 nodes"), "\(error)")
    }
  }

  /// The element compare behind the incremental read: equal bits are the same value; a copy of
  /// a collection with one element changed differs at that position only.
  func testPositionsChangedFindsTheChangedElementOnly() async throws {
    let elements: [Value] = (1...100).map { ["id": .integer(Int64($0)), "title": .string("Row \($0)")] }
    XCTAssertEqual(ReluaViewTreeReader.positionsChanged(from: elements, to: elements), [])
    var changed = elements
    changed[41] = ["id": 42, "title": "changed"]
    XCTAssertEqual(ReluaViewTreeReader.positionsChanged(from: elements, to: changed), [41])
    XCTAssertNil(ReluaViewTreeReader.positionsChanged(from: elements, to: Array(changed.dropLast())))
    XCTAssertEqual(ReluaViewTreeReader.positionsChanged(from: [], to: []), [])
  }
}
