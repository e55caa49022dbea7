import Foundation
import XCTest

@testable import Relua

/// `ReluaViewRows`, a list's rows in shared chunks: an array's behaviour and JSON at every chunk
/// boundary, a replaced row sharing the other chunks, and a diff of lists sharing chunks giving
/// the patches of the same lists built from arrays.
final class ReluaViewRowsTests: XCTestCase {
  private func row(_ id: Int, _ text: String? = nil) -> ReluaViewRow {
    ReluaViewRow(
      id: .integer(Int64(id)),
      content: .hstack([.text(text ?? "Row \(id)"), .button(label: "Go", action: ReluaViewAction(path: "rows[id=\(id)].go"))]))
  }

  private let sizes = [0, 1, 31, 32, 33, 63, 64, 65, 1_000]

  func testItHoldsTheRowsOfItsArrayAtEveryChunkBoundary() throws {
    for size in sizes {
      let array = (0..<size).map { row($0) }
      let rows = ReluaViewRows(array)
      XCTAssertEqual(rows.count, size)
      XCTAssertEqual(Array(rows), array, "\(size) rows")
      XCTAssertEqual(rows.map(\.id), array.map(\.id))
      XCTAssertEqual(rows.indices, 0..<size)
      if size > 0 { XCTAssertEqual(rows[size - 1], array[size - 1]) }
      XCTAssertEqual(rows.first(where: { $0.id == .integer(30) }), array.first(where: { $0.id == .integer(30) }))
      var appended: ReluaViewRows = []
      for row in array { appended.append(row) }
      XCTAssertEqual(appended, rows, "\(size) rows appended one by one")
      XCTAssertEqual(ReluaViewRows(array.lazy.map { $0 }), rows)
    }
    XCTAssertEqual(ReluaViewRows([row(1), row(2)]), [row(1), row(2)])
    XCTAssertEqual(ReluaViewNode.list([row(1)]), ReluaViewNode.list(ReluaViewRows([row(1)])))
  }

  func testAReplacedRowChangesThatRowOnly() throws {
    for size in sizes where size > 0 {
      let original = ReluaViewRows((0..<size).map { row($0) })
      for position in Set([0, 30, 31, 32, 33, 63, 64, size / 2, size - 1]) where position < size {
        var changed = original
        changed.replace(at: position, with: row(position, "changed"))
        var expected = Array(original)
        expected[position] = row(position, "changed")
        XCTAssertEqual(Array(changed), expected, "\(size) rows, at \(position)")
        XCTAssertEqual(changed, ReluaViewRows(expected))
        XCTAssertNotEqual(changed, original)
        XCTAssertEqual(Array(original), (0..<size).map { row($0) }, "the copy it was changed from is unchanged")
        // The one chunk changed is the only one not shared.
        let chunk = position / ReluaViewRows.chunkSize * ReluaViewRows.chunkSize
        XCTAssertEqual(original.positionsNotShared(with: changed), [chunk..<min(chunk + ReluaViewRows.chunkSize, size)])
        var set = original
        set[position].content = .text("set")
        XCTAssertEqual(set[position].content, .text("set"))
        XCTAssertEqual(set.count, size)
      }
      XCTAssertEqual(original.positionsNotShared(with: original), [])
      XCTAssertEqual(original.positionsNotShared(with: ReluaViewRows(Array(original))).count, (size + 31) / 32)
    }
  }

  func testEqualityWithAndWithoutSharedChunks() {
    let rows = ReluaViewRows((0..<100).map { row($0) })
    let copy = rows
    XCTAssertEqual(rows, copy)
    XCTAssertEqual(rows, ReluaViewRows((0..<100).map { row($0) }))
    XCTAssertNotEqual(rows, ReluaViewRows((0..<99).map { row($0) }))
    XCTAssertNotEqual(rows, ReluaViewRows((0..<100).map { row($0, $0 == 99 ? "other" : nil) }))
    var changedBack = rows
    changedBack.replace(at: 40, with: row(40, "other"))
    XCTAssertNotEqual(changedBack, rows)
    changedBack.replace(at: 40, with: row(40))
    XCTAssertEqual(changedBack, rows)
  }

  func testItsJSONIsTheJSONOfTheArray() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    for size in sizes {
      let array = (0..<size).map { row($0) }
      let json = try encoder.encode(ReluaViewRows(array))
      XCTAssertEqual(String(decoding: json, as: UTF8.self), String(decoding: try encoder.encode(array), as: UTF8.self))
      XCTAssertEqual(try JSONDecoder().decode(ReluaViewRows.self, from: json), ReluaViewRows(array))
      let node = ReluaViewNode.vstack([.list(ReluaViewRows(array))])
      XCTAssertEqual(try JSONDecoder().decode(ReluaViewNode.self, from: Data(try node.json().utf8)), node)
    }
  }

  func testRangeReplacingLikeAnArray() {
    var rows = ReluaViewRows((0..<70).map { row($0) })
    var array = (0..<70).map { row($0) }
    rows.insert(row(100), at: 32)
    array.insert(row(100), at: 32)
    rows.remove(at: 5)
    array.remove(at: 5)
    rows.replaceSubrange(60..<65, with: [row(200)])
    array.replaceSubrange(60..<65, with: [row(200)])
    rows.append(contentsOf: [row(300), row(301)])
    array.append(contentsOf: [row(300), row(301)])
    XCTAssertEqual(Array(rows), array)
    rows.swapAt(0, 40)
    array.swapAt(0, 40)
    XCTAssertEqual(Array(rows), array)
    XCTAssertEqual(rows.description, array.description)
  }

  /// Rows changed in a copy (chunks shared) give the patches the same rows give as arrays.
  func testADiffOfListsSharingChunksGivesTheArraysPatches() throws {
    let base = (0..<1_000).map { row($0) }
    var duplicated = base
    duplicated[999] = row(0)
    for old in [ReluaViewRows(base), ReluaViewRows(duplicated)] {
      for positions in [[], [0], [31], [32], [500], [999], [1, 33, 998]] {
        for whole in [false, true] {
          var new = old
          for position in positions {
            let id = Int(old[position].id.integerValue!)
            new.replace(at: position, with: whole ? ReluaViewRow(id: old[position].id, content: .text("whole")) : row(id, "changed"))
          }
          let shared = ReluaViewPatch.changes(from: .vstack([.list(old)]), to: .vstack([.list(new)]))
          let apart = ReluaViewPatch.changes(from: .vstack([.list(Array(old))]), to: .vstack([.list(Array(new))]))
          XCTAssertEqual(shared, apart, "\(positions), whole: \(whole)")
          XCTAssertEqual(ReluaViewPatch.changes(from: .list(old), to: .list(new)), ReluaViewPatch.changes(from: .list(Array(old)), to: .list(Array(new))))
          XCTAssertEqual(try ReluaViewNode.list(old).applying(shared.map { patch in
            guard case .replace(let at, let node) = patch else {
              guard case .rows(let at, let ids, let rows) = patch else { return patch }
              return .rows(at: Array(at.dropFirst()), ids: ids, rows: rows)
            }
            return .replace(at: Array(at.dropFirst()), node: node)
          }), .list(new))
          XCTAssertEqual(positions.isEmpty, shared.isEmpty)
        }
      }
    }
  }
}
