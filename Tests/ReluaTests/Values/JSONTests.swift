import Relua
import XCTest

final class JSONTests: XCTestCase {
  func testRoundTripKeepsIntegersFloatsAndKeyOrder() throws {
    let value: Value = [
      "count": 1, "ratio": 1.0, "big": .integer(9_007_199_254_740_993), "name": "é\n\"",
      "results": .identified([["id": "a", "secret": -5]]), "empty": [:], "list": [],
    ]
    let json = try value.json()
    XCTAssertEqual(json, #"{"big":9007199254740993,"count":1,"empty":{},"list":[],"name":"é\n\"","ratio":1.0,"results":[{"id":"a","secret":-5}]}"#)
    XCTAssertEqual(try Value(json: json, hint: value), value)
    XCTAssertEqual(try Value(json: try value.json(pretty: true), hint: value), value)
    XCTAssertEqual(try Value(json: json)[key: "results"], [["id": "a", "secret": -5]])
  }

  func testParsesNumbersAndEscapes() throws {
    XCTAssertEqual(try Value(json: #"[1, 1.5, -2e3, 1E2, "\u00e9\ud83d\ude00"]"#), [1, 1.5, -2000.0, 100.0, "é😀"])
    XCTAssertEqual(try Value(json: #"{"a": null, "b": 1}"#), ["b": 1])
    XCTAssertThrowsError(try Value(json: "[1, null]"))
    XCTAssertThrowsError(try Value(json: "{"))
    XCTAssertThrowsError(try Value(json: "1 2"))
    XCTAssertThrowsError(try Value.float(.nan).json())
  }

  func testPrettyOutput() throws {
    let value: Value = ["a": [1, 2], "b": ["c": true]]
    XCTAssertEqual(try value.json(pretty: true), """
      {
        "a": [
          1,
          2
        ],
        "b": {
          "c": true
        }
      }
      """)
  }

  /// A list mixing kinds reads back as it was with itself as the hint (the property driver found
  /// `{ [], {} }` coming back as `{ [], [] }`: every element was conformed to the first).
  func testAMixedListReadsBackWithItselfAsTheHint() throws {
    let value: Value = ["liked": [.array([]), .record(ValueRecord()), ["x": 1]]]
    let json = try value.json()
    XCTAssertEqual(json, #"{"liked":[[],{},{"x":1}]}"#)
    XCTAssertEqual(try Value(json: json, hint: value), value)
  }

  /// Deeper than `Value.maxDepth` is an error, not a stack overflow.
  func testNestingPastTheDepthBoundIsAnError() throws {
    XCTAssertThrowsError(try Value(json: String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))) { error in
      XCTAssertEqual("\(error)", "JSON: nested more than 200 objects and arrays deep at byte 200")
    }
    XCTAssertNoThrow(try Value(json: String(repeating: "[", count: 200) + String(repeating: "]", count: 200)))
  }
}
