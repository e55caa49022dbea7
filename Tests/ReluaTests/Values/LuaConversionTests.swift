import Lua
import Relua
import XCTest

final class LuaConversionTests: XCTestCase {
  func testScalarsRoundTripExactly() throws {
    let harness = try ViewHarness()
    let top = harness.stackTop
    let big: Int64 = 9_007_199_254_740_993  // 2^53 + 1: not representable as a Double
    for value: Value in [nil, true, false, 0, -7, .integer(big), .integer(.max), .integer(.min), 1.0, 0.1, -0.0, 1e300, "", "héllo\n\"q\""] {
      let pushed = try harness.lua.value(value)
      XCTAssertEqual(try harness.views.value(from: pushed), value, "\(value)")
    }
    XCTAssertEqual(try harness.value("2^53 + 1"), .float(9_007_199_254_740_992))
    XCTAssertEqual(try harness.value("9007199254740993"), .integer(big))
    XCTAssertEqual(try harness.lua(.integer(big), "return math.type(v) .. ' ' .. tostring(v)"), "integer 9007199254740993")
    XCTAssertEqual(try harness.lua(1.0, "return math.type(v)"), "float")
    XCTAssertEqual(harness.stackTop, top)
  }

  func testNestedRecordsArraysAndIdentifiedCollectionsRoundTrip() throws {
    let harness = try ViewHarness()
    let state: Value = [
      "counter": ["id": "r1", "secret": 5, "count": 0],
      "results": .identified([["id": "r0", "secret": 3, "count": 3, "correct": true]]),
      "tags": ["a", "b"],
      "matrix": [[1, 2], [3.5]],
    ]
    let back = try harness.views.value(from: try harness.lua.value(state), hint: state)
    XCTAssertEqual(back, state)
    // Without a hint too: the pushed table carries the identified marker (`relua.identified`).
    let plain = try harness.views.value(from: try harness.lua.value(state))
    XCTAssertEqual(plain[key: "results"], .identified([["id": "r0", "secret": 3, "count": 3, "correct": true]]))
    XCTAssertEqual(plain[key: "tags"], ["a", "b"])
    XCTAssertEqual(try harness.lua(state, "return #v.results .. v.results[1].id .. v.matrix[2][1]"), "1r03.5")
  }

  func testEmptyTablesTakeTheKindOfTheirSlot() throws {
    let harness = try ViewHarness()
    XCTAssertEqual(try harness.value("{}"), .record(ValueRecord()))
    XCTAssertEqual(try harness.value("{}", hint: []), .array([]))
    let hint: Value = ["items": [1], "results": .identified([]), "child": ["x": 1]]
    XCTAssertEqual(
      try harness.value("{ items = {}, results = {}, child = {} }", hint: hint),
      ["items": .array([]), "results": .identified([]), "child": .record(ValueRecord())])
  }

  func testRejectsWhatStateCannotHoldWithThePath() throws {
    let harness = try ViewHarness()
    let cases: [(String, String)] = [
      ("{ results = { {}, {}, { f = print } } }", "state.results[3].f: a function cannot be state"),
      ("{ results = { 1, 2, { 1, x = 2 } } }", "state.results[3]: tables must be a sequence or have string keys"),
      ("{ [1] = 1, [3] = 3 }", "state: tables must be a sequence or have string keys"),
      ("{ [1.5] = 1 }", "state: tables must be a sequence or have string keys"),
      ("{ co = coroutine.create(print) }", "state.co: a thread cannot be state"),
      ("{ ['odd key'] = { bad = '\\xff' } }", "state[\"odd key\"].bad: strings in state must be valid UTF-8"),
    ]
    for (expression, message) in cases {
      XCTAssertThrowsError(try harness.value(expression), expression) { error in
        XCTAssertEqual(luaMessage(error), message)
      }
    }
    XCTAssertThrowsError(try harness.value("(function() local t = {} t.self = t return t end)()")) { error in
      XCTAssertEqual(luaMessage(error), "state.self: a table cannot contain itself (cycle)")
    }
    XCTAssertThrowsError(try harness.value("{ results = { { id = 1 }, { id = 1 } } }", hint: ["results": .identified([])])) { error in
      XCTAssertEqual(luaMessage(error), "state.results[2]: duplicate id 1 in an identified collection")
    }
  }

  func testSharedSubtablesAreNotCycles() throws {
    let harness = try ViewHarness()
    XCTAssertEqual(try harness.value("(function() local t = { 1 } return { a = t, b = t } end)()"), ["a": [1], "b": [1]])
  }
}
