import Foundation
import XCTest

@testable import Relua

/// A row's revision (set by the tree reader on `relua.ui.forEach` rows it reused): the diff skips
/// a row of the same revision without comparing its content, and a changed row gives the same
/// patches as without revisions. Equality and JSON ignore it.
final class ReluaViewRowRevisionTests: XCTestCase {
  private func row(_ id: Int, _ text: String, revision: UInt64?) -> ReluaViewRow {
    var row = ReluaViewRow(
      id: .integer(Int64(id)),
      content: .hstack([.text(text), .button(label: "Toggle", action: ReluaViewAction(path: "rows[id=\(id)].toggle"))]))
    row.revision = revision
    return row
  }

  func testARowOfTheSameRevisionIsSkippedWithoutComparingItsContent() {
    // Contents that differ under one revision (which the reader never makes): no patch shows the
    // diff did not look inside.
    let old = ReluaViewNode.list([row(1, "a", revision: 7), row(2, "b", revision: 8)])
    let new = ReluaViewNode.list([row(1, "a", revision: 7), row(2, "changed", revision: 8)])
    XCTAssertEqual(ReluaViewPatch.changes(from: old, to: new), [])
    XCTAssertEqual(ReluaViewPatch.changes(from: .vstack([old]), to: .vstack([new])), [])
  }

  func testAChangedRowGivesTheSamePatchesAsWithoutRevisions() throws {
    let ids = Array(1...5)
    let plainOld = ReluaViewNode.list(ids.map { row($0, "Row \($0)", revision: nil) })
    let plainNew = ReluaViewNode.list(ids.map { row($0, $0 == 3 ? "Row 3 done" : "Row \($0)", revision: nil) })
    let old = ReluaViewNode.list(ids.map { row($0, "Row \($0)", revision: UInt64($0)) })
    let new = ReluaViewNode.list(ids.map { row($0, $0 == 3 ? "Row 3 done" : "Row \($0)", revision: $0 == 3 ? 6 : UInt64($0)) })
    let patches = ReluaViewPatch.changes(from: old, to: new)
    XCTAssertEqual(patches, ReluaViewPatch.changes(from: plainOld, to: plainNew))
    XCTAssertEqual(patches, [.replace(at: [2, 0], node: .text("Row 3 done"))])
    XCTAssertEqual(try old.applying(patches), new)
    // Moved and added rows too.
    let moved = ReluaViewNode.list([row(2, "Row 2", revision: 2), row(1, "Row 1", revision: 1), row(9, "Row 9", revision: 9)])
    let plainMoved = ReluaViewNode.list([row(2, "Row 2", revision: nil), row(1, "Row 1", revision: nil), row(9, "Row 9", revision: nil)])
    XCTAssertEqual(ReluaViewPatch.changes(from: old, to: moved), ReluaViewPatch.changes(from: plainOld, to: plainMoved))
  }

  func testAPatchAppliedInsideARowClearsItsRevision() throws {
    let old = ReluaViewNode.list([row(1, "a", revision: 1), row(2, "b", revision: 2)])
    let applied = try old.applying([.replace(at: [1, 0], node: .text("changed"))])
    XCTAssertNotEqual(applied, old)
    XCTAssertEqual(ReluaViewPatch.changes(from: old, to: applied), [.replace(at: [1, 0], node: .text("changed"))])
    let rowsApplied = try old.applying([.rows(at: [], ids: nil, rows: [row(2, "c", revision: nil)])])
    XCTAssertNotEqual(ReluaViewPatch.changes(from: old, to: rowsApplied), [])
  }

  func testEqualityAndJSONIgnoreTheRevision() throws {
    XCTAssertEqual(row(1, "a", revision: 1), row(1, "a", revision: 2))
    XCTAssertEqual(row(1, "a", revision: nil), row(1, "a", revision: 2))
    XCTAssertNotEqual(row(1, "a", revision: 1), row(1, "b", revision: 2))
    XCTAssertEqual(try ReluaViewNode.list([row(1, "a", revision: 5)]).json(), try ReluaViewNode.list([row(1, "a", revision: nil)]).json())
  }
}
