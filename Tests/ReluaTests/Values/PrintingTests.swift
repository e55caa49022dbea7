import Composable
import Relua
import XCTest

final class PrintingTests: XCTestCase {
  func testOneLineLuaLiterals() {
    let value: Value = ["count": 1, "results": .identified([["id": "a1", "secret": 5]]), "ratio": 0.5, "whole": 2.0, "ok": true]
    XCTAssertEqual(value.description, #"{ count = 1, ok = true, ratio = 0.5, results = { { id = "a1", secret = 5 } }, whole = 2.0 }"#)
    XCTAssertEqual(Value.array([]).description, "{}")
    XCTAssertEqual(Value.null.description, "nil")
    XCTAssertEqual(Value.float(.infinity).description, "math.huge")
    XCTAssertEqual((["odd key": 1, "end": 2] as Value).description, #"{ ["end"] = 2, ["odd key"] = 1 }"#)
  }

  /// Lua reads `-9223372036854775808` as a float; the smallest integer is written by name, and
  /// action paths read it back (found by the fuzzer).
  func testTheSmallestIntegerIsWrittenSoLuaReadsItBack() {
    XCTAssertEqual(Value.integer(.min).description, "math.mininteger")
    XCTAssertEqual(Value.integer(.max).description, "9223372036854775807")
    XCTAssertEqual(Value.integer(-1).description, "-1")
  }

  func testStringsAreQuotedLikePercentQ() {
    XCTAssertEqual(Value.string("a\"b\\c\nd\te\u{1}é").description, #""a\"b\\c\nd\te\001é""#)
  }

  func testLongOutputIsElidedWithACount() {
    let value = Value.array((1...100).map { .integer(Int64($0)) })
    var fiveItems = Elision.standard
    fiveItems.items = 5
    XCTAssertEqual(value.luaLiteral(LuaLiteralFormat(elision: fiveItems)), "{ 1, 2, 3, 4, 5, … 95 more }")
  }

  func testMultiLineIndentsWhatDoesNotFit() {
    let value: Value = [
      "counter": ["count": 1, "id": "00000000-0000-0000-0000-000000000000", "secret": 5],
      "results": .identified([["id": "00000000-0000-0000-0000-000000000001", "secret": 5, "count": 5]]),
    ]
    XCTAssertEqual(value.luaLiteral(.multiLine), """
      {
        counter = {
          count = 1,
          id = "00000000-0000-0000-0000-000000000000",
          secret = 5,
        },
        results = {
          { count = 5, id = "00000000-0000-0000-0000-000000000001", secret = 5 },
        },
      }
      """)
  }
}
