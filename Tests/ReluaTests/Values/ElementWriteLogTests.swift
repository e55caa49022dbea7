import XCTest

@testable import Relua

/// The write log of an identified collection: in-place writes are logged with numbers no other
/// write has; anything that moves ids clears it; two copies written apart do not find each other's
/// writes (what keeps a view's reader from trusting a log of another history).
final class ElementWriteLogTests: XCTestCase {
  override func setUp() {
    ElementWriteLog.start()
  }

  private func collection(_ count: Int) throws -> IdentifiedValues {
    try IdentifiedValues((1...count).map { ["id": .integer(Int64($0)), "n": 0] })
  }

  func testInPlaceWritesAreLoggedAndFoundAfterANumber() throws {
    var rows = try collection(10)
    XCTAssertNil(rows.writes.newest, "a new collection has no writes")
    rows[3] = ["id": 4, "n": 1]
    let seen = try XCTUnwrap(rows.writes.newest)
    XCTAssertEqual(rows.writes.positions(after: seen), [])
    rows.modifyElement(at: 7) { $0 = ["id": 8, "n": 2] }
    rows[id: 2] = ["id": 2, "n": 3]
    rows[3] = ["id": 4, "n": 4]
    XCTAssertEqual(rows.writes.positions(after: seen), [7, 1, 3], "in order, each once")
    XCTAssertNil(rows.writes.positions(after: 0), "a number never given is not found")
  }

  func testAnythingThatMovesIdsClearsTheLog() throws {
    let moves: [(String, (inout IdentifiedValues) throws -> Void)] = [
      ("append", { try $0.append(["id": 99]) }),
      ("insert", { try $0.insert(["id": 99], at: 0) }),
      ("remove", { $0.remove(at: 0) }),
      ("remove by id", { $0.remove(id: 5) }),
      ("an id changed in place", { $0[2] = ["id": 77] }),
      ("a slot assigned", { $0.setSlot(1, to: ["id": 2, "n": 9]) }),
      ("reindex", { try $0.reindex() }),
    ]
    for (name, move) in moves {
      var rows = try collection(5)
      rows[0] = ["id": 1, "n": 1]
      let seen = try XCTUnwrap(rows.writes.newest)
      try move(&rows)
      XCTAssertNil(rows.writes.positions(after: seen), name)
    }
  }

  func testCopiesWrittenApartDoNotFindEachOthersWrites() throws {
    var original = try collection(10)
    original[0] = ["id": 1, "n": 1]
    let branchPoint = try XCTUnwrap(original.writes.newest)
    var left = original, right = original
    left[3] = ["id": 4, "n": 1]
    right[3] = ["id": 4, "n": 2]
    let leftSeen = try XCTUnwrap(left.writes.newest)
    XCTAssertNotEqual(leftSeen, right.writes.newest, "the same write on two copies: two numbers")
    XCTAssertNil(right.writes.positions(after: leftSeen), "right never went through left's state")
    XCTAssertEqual(right.writes.positions(after: branchPoint), [3])
    // A copy of left written further still finds left's number: it went through that state.
    var later = left
    later[5] = ["id": 6, "n": 1]
    XCTAssertEqual(later.writes.positions(after: leftSeen), [5])
  }

  func testAFullLogDropsItsOlderHalf() throws {
    var rows = try collection(100)
    rows[0] = ["id": 1, "n": 1]
    let first = try XCTUnwrap(rows.writes.newest)
    for position in 1..<ElementWriteLog.capacity { rows[position] = ["id": .integer(Int64(position + 1)), "n": 1] }
    XCTAssertEqual(rows.writes.positions(after: first)?.count, ElementWriteLog.capacity - 1, "still there at capacity")
    rows[99] = ["id": 100, "n": 1]
    XCTAssertNil(rows.writes.positions(after: first), "dropped with the older half")
    XCTAssertEqual(rows.writes.entries.count, ElementWriteLog.capacity / 2 + 1)
  }

  func testTheLogIsNotPartOfTheValue() throws {
    let plain = try collection(3)
    var written = plain
    written[1] = plain[1]
    XCTAssertEqual(written, plain)
    XCTAssertEqual(written.hashValue, plain.hashValue)
  }
}

/// The log costs no width: a `Value` holds an identified collection inline, so a wider collection
/// widens every value, and every send copies values (a fifth word measured `lua.send` 7 % slower).
final class IdentifiedValuesWidthTests: XCTestCase {
  func testAnIdentifiedCollectionIsFourWords() {
    XCTAssertEqual(MemoryLayout<IdentifiedValues>.size, 4 * MemoryLayout<Int>.size)
    XCTAssertLessThanOrEqual(MemoryLayout<Value>.size, 4 * MemoryLayout<Int>.size + 1)
  }
}
