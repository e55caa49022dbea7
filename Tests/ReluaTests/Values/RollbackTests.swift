import Lua
import Relua
import XCTest

final class RollbackTests: XCTestCase {
  func testARaisingReducerLeavesTheStateExactlyAsItWas() throws {
    let harness = try ViewHarness()
    let original: Value = [
      "count": 1,
      "counter": ["count": 2, "secret": 5],
      "list": [3, 1, 2],
      "results": .identified([["id": "a", "n": 1], ["id": "b", "n": 2], ["id": "c", "n": 3]]),
    ]
    var state = original
    let top = harness.stackTop
    XCTAssertThrowsError(try harness.reduce(&state, """
      s.count = 10
      s.counter.count = 20; s.counter.secret = nil; s.counter.extra = { deep = { 1 } }
      s.counter.extra.deep[2] = 2
      table.insert(s.list, 4); table.insert(s.list, 1, 0); table.remove(s.list, 2); table.sort(s.list)
      table.insert(s.results, 1, { id = 'z', n = 0 }); table.remove(s.results, 3)
      table.sort(s.results, function(x, y) return x.n > y.n end)
      s.results[1].n = 99
      s.new = s.counter
      error('boom')
      """)) { error in
      XCTAssertTrue(luaMessage(error).hasSuffix("boom"), luaMessage(error))
    }
    XCTAssertEqual(state, original)
    XCTAssertEqual(state[key: "results"].identifiedValue?.index(id: "c"), 2)
    XCTAssertEqual(harness.stackTop, top)
  }

  func testRollbackAfterAFailedWriteKeepsEarlierWritesUndone() throws {
    let harness = try ViewHarness()
    var state: Value = ["a": 1, "list": [1]]
    XCTAssertThrowsError(try harness.reduce(&state, "s.a = 2; s.list[2] = 2; s.list[5] = 5"))
    XCTAssertEqual(state, ["a": 1, "list": [1]])
  }

  func testSuccessfulCallsKeepTheirWritesAndTheLogStartsEmpty() throws {
    let harness = try ViewHarness()
    var state: Value = ["n": 0]
    try harness.reduce(&state, "s.n = 1")
    XCTAssertThrowsError(try harness.reduce(&state, "s.n = 2; error('x')"))
    XCTAssertEqual(state, ["n": 1])
  }

  /// A rollback in a big collection costs the writes, and does not copy the collection.
  func testRollbackInAHugeArrayDoesNotCopyIt() throws {
    let harness = try ViewHarness()
    var state: Value = ["items": roomyArray(100_000) { .integer(Int64($0)) }]
    let before = storage(state, ["items"])
    do {
      try harness.reduce(&state, "s.items[10] = -1; error('x')")
      XCTFail("expected an error")
    } catch {}
    // (Not inside XCTAssertThrowsError: its autoclosure may pass a temporary copy of `state`.)
    XCTAssertEqual(storage(state, ["items"]), before)
    XCTAssertEqual(state[path: ["items", 9]], 9)
  }
}
