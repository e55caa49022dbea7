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

  /// Identified collections diff by id: an insertion anywhere is one added row, a removal one
  /// removed row, and a changed element is opened under its id, not every row after it.
  func testIdentifiedCollectionsDiffByID() {
    let rows: Value = .identified([["id": 1, "name": "a"], ["id": 2, "name": "b"], ["id": 3, "name": "c"]])
    let changed: Value = .identified([["id": 0, "name": "new"], ["id": 1, "name": "a"], ["id": 3, "name": "C"]])
    XCTAssertEqual(rows.diff(to: changed), """
        {
      +   { id = 0, name = "new" },
          … (1 unchanged)
      −   { id = 2, name = "b" },
          [id=3] = {
            … (1 unchanged)
      −     name = "c",
      +     name = "C",
          },
        }
      """)
    // Elements that moved: by position, as any sequence.
    let moved: Value = .identified([["id": 2, "name": "b"], ["id": 1, "name": "a"], ["id": 3, "name": "c"]])
    XCTAssertEqual(rows.diff(to: moved), """
        {
      −   { id = 1, name = "a" },
      +   { id = 2, name = "b" },
      −   { id = 2, name = "b" },
      +   { id = 1, name = "a" },
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
