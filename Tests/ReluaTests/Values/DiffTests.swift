import Relua
import XCTest

final class DiffTests: XCTestCase {
  func testNestedChangeShowsOnlyWhatChanged() {
    let old: Value = ["counter": ["count": 1, "id": "a", "secret": 5], "results": []]
    var new = old
    new[path: ["counter", "count"]] = 2
    XCTAssertEqual(old.diff(to: new), """
        {
          counter = {
      −     count = 1,
      +     count = 2,
            … (2 unchanged)
          },
          … (1 unchanged)
        }
      """)
    XCTAssertNil(old.diff(to: old))
  }

  func testSequencesCollapseTheCommonHeadAndTail() {
    let old: Value = ["results": .identified([["id": 1], ["id": 2], ["id": 3]])]
    var new = old
    try! new[key: "results"].identifiedValue.map { var c = $0; try c.append(["id": 4]); new[key: "results"] = .identified(c) }
    XCTAssertEqual(old.diff(to: new), """
        {
          results = {
            … (3 unchanged)
      +     { id = 4 },
          },
        }
      """)
    XCTAssertEqual(Value.array([1, 2, 3]).diff(to: [1, 5, 3]), """
        {
          … (1 unchanged)
      −   2,
      +   5,
          … (1 unchanged)
        }
      """)
  }

  func testAddedRemovedAndRetypedFields() {
    let old: Value = ["a": 1, "b": "x", "c": ["n": 1]]
    let new: Value = ["a": 1.0, "c": ["n": 1], "d": true]
    XCTAssertEqual(old.diff(to: new), """
        {
      −   a = 1,
      +   a = 1.0,
      −   b = "x",
          … (1 unchanged)
      +   d = true,
        }
      """)
  }
}
