import XCTest

@testable import Lua

final class ValueTests: XCTestCase {
  func testIntegersAndFloatsStayApart() throws {
    let state = try LuaState()
    let identity = try state.load("return ...")
    try assertBalanced(state) {
      XCTAssertEqual(try identity.call(3), [.integer(3)])
      XCTAssertEqual(try identity.call(3.0), [.number(3.0)])
      XCTAssertEqual(try state.execute("return 3, 3.0, 7 // 2, 7 / 2"), [.integer(3), .number(3.0), .integer(3), .number(3.5)])
      let big: Int64 = (1 << 53) + 1
      XCTAssertEqual(try identity.call(.integer(big)), [.integer(big)])
      XCTAssertEqual(try state.execute("return math.type(9007199254740993), 9007199254740993 + 1"), ["integer", .integer(big + 1)])
      XCTAssertEqual(try state.execute("return 9007199254740993").first?.as(Int64.self), big)
    }
  }

  func testExactConversions() throws {
    let state = try LuaState()
    let values = try state.execute("return 3.5, 3.0, 2^63, 'x', 42")
    if case .conversion? = assertLuaError({ try values[0].as(Int.self) }) {} else { XCTFail("3.5 as Int") }
    XCTAssertEqual(try values[1].as(Int.self), 3)
    XCTAssertThrowsError(try values[2].as(Int64.self))
    XCTAssertThrowsError(try values[3].as(Int.self))
    XCTAssertEqual(try values[4].as(Double.self), 42)
    XCTAssertEqual(try values[3].as(String.self), "x")
    XCTAssertNil(try LuaValue.nil.as(Int?.self))
    XCTAssertEqual(try LuaValue.integer(5).as(Int?.self), 5)
    XCTAssertThrowsError(try LuaValue.boolean(true).as(String.self))
  }

  func testBytesRoundTrip() throws {
    let state = try LuaState()
    let identity = try state.load("return ...")
    let bytes: [UInt8] = [0x61, 0x00, 0x62, 0xFF, 0xFE, 0x00]
    let result = try identity.call(.string(LuaString(bytes: bytes)))
    XCTAssertEqual(result, [.string(LuaString(bytes: bytes))])
    XCTAssertNil(result[0].stringValue, "invalid UTF-8 is not a String")
    XCTAssertThrowsError(try result[0].as(String.self))
    XCTAssertEqual(try state.execute("return #('a\\0b\\255')"), [.integer(4)])
    XCTAssertEqual(try identity.call("héllo").first?.stringValue, "héllo")
  }

  func testNestedTablesAndCollections() throws {
    let state = try LuaState()
    let result = try state.execute("return { 1, 2, { x = 'y', list = { true, false } }, n = 3.5 }")
    let table = try XCTUnwrap(result.first?.tableValue)
    try assertBalanced(state) {
      XCTAssertEqual(try table[1], 1)
      XCTAssertEqual(try table["n"], 3.5)
      let inner = try XCTUnwrap(try table[3].tableValue)
      XCTAssertEqual(try inner["x"], "y")
      XCTAssertEqual(try inner["list"].as([Bool].self), [true, false])
      XCTAssertEqual(try table.rawLength, 3)
      XCTAssertEqual(try table.pairs().count, 4)
    }
    // Swift collections to Lua and back.
    let sum = try state.load("local t, d = ... local s = 0 for _, v in ipairs(t) do s = s + v end return s + d.extra, #t")
    XCTAssertEqual(try state.call(sum, pushing: [[1, 2, 3], ["extra": 10]]), [16, 3])
    let nested = try state.value([["a": [1, 2]], ["a": [3]]])
    let back = try nested.as([[String: [Int]]].self)
    XCTAssertEqual(back, [["a": [1, 2]], ["a": [3]]])
    let made = try state.table(array: [1, "two"], fields: ["k": true])
    XCTAssertEqual(try state.call(try state.load("local t = ... return t[1], t[2], t.k"), .table(made)), [1, "two", true])
  }

  func testGlobalsAndMetamethodsAreProtected() throws {
    let state = try LuaState()
    try assertBalanced(state) {
      try state.setGlobal("answer", 42)
      XCTAssertEqual(try state.globals["answer"], 42)
      XCTAssertEqual(try state.execute("return answer + 1"), [43])
      try state.execute("strict = setmetatable({}, { __index = function(_, k) error('no field ' .. k) end, __newindex = function() error('read-only') end })")
      let strict = try XCTUnwrap(try state.globals["strict"].tableValue)
      guard case .runtime(let message, _)? = assertLuaError({ try strict["missing"] }) else { return XCTFail() }
      XCTAssertTrue(message.contains("no field missing"), message)
      XCTAssertNotNil(assertLuaError({ try strict.set("x", 1) }))
      XCTAssertEqual(try strict.rawGet("missing"), .nil)
      XCTAssertNotNil(assertLuaError({ try strict.rawSet(.nil, 1) }))
    }
  }

  func testReferencesCompareByIdentity() throws {
    let state = try LuaState()
    let results = try state.execute("local t = {} return t, t, {}")
    XCTAssertEqual(results[0], results[1])
    XCTAssertNotEqual(results[0], results[2])
  }
}
