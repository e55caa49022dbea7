import Relua
import XCTest

/// The REPL's diff after a send (`rowsShown`): rows added or removed together are summed up past
/// the first few, each shown on one line with its nested tables collapsed (#36: a page of search
/// results printed 45 lines).
final class DiffRowSummaryTests: XCTestCase {
  private func rows(_ ids: ClosedRange<Int>) -> Value {
    .identified(try! IdentifiedValues(ids.map { ["id": .integer(Int64($0)), "owner": ["avatar_url": .string(String(repeating: "x", count: 150))]] }))
  }

  func testAddedRowsPastTheFirstFewAreSummedUpWithTheirIDs() {
    let old: Value = ["items": .identified([]), "page": 0]
    let new: Value = ["items": rows(1...30), "page": 1]
    XCTAssertEqual(old.diff(to: new, rowsShown: 2), """
        {
          items = {
      +     { id = 1, owner = { … 1 more } },
      +     { id = 2, owner = { … 1 more } },
      +     … 28 more rows [id=3…id=30]
          },
      −   page = 0,
      +   page = 1,
        }
      """)
  }

  func testRemovedRowsAndAnUnchangedOneBetweenEndARun() {
    let old: Value = ["items": rows(1...6)]
    let new: Value = ["items": .identified(try! IdentifiedValues([rows(1...6).identifiedValue!.elements[3]]))]
    XCTAssertEqual(old.diff(to: new, rowsShown: 1), """
        {
          items = {
      −     { id = 1, owner = { … 1 more } },
      −     … 2 more rows [id=2…id=3]
            … (1 unchanged)
      −     { id = 5, owner = { … 1 more } },
      −     … 1 more row [id=6]
          },
        }
      """)
  }

  func testWithoutRowsShownEveryRowIsShownAsBefore() {
    let old: Value = ["items": .identified([])]
    let new: Value = ["items": rows(1...2)]
    XCTAssertEqual(old.diff(to: new), old.diff(to: new, rowsShown: nil))
    XCTAssertTrue(old.diff(to: new)!.contains("avatar_url"))
  }
}
