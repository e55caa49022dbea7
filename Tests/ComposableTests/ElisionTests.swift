import Composable
import XCTest

/// The one rule of what people see (`Elision`): its words, its cuts of strings and text, and the
/// TestStore's messages for Swift features following it.
final class ElisionTests: XCTestCase {
  func testCountsAreWrittenWithThousandsSeparators() {
    XCTAssertEqual(Elision.grouped(0), "0")
    XCTAssertEqual(Elision.grouped(999), "999")
    XCTAssertEqual(Elision.grouped(1000), "1,000")
    XCTAssertEqual(Elision.grouped(999_997), "999,997")
    XCTAssertEqual(Elision.grouped(1_234_567), "1,234,567")
    XCTAssertEqual(Elision.grouped(-1_234), "-1,234")
  }

  func testTheWords() {
    XCTAssertEqual(Elision.more(999_997), "… 999,997 more")
    XCTAssertEqual(Elision.moreChanges(999_985), "… 999,985 more changes")
    XCTAssertEqual(Elision.moreLines(1_234), "… 1,234 more lines")
    XCTAssertEqual(Elision.cutNote(total: 100_000, shown: 200), "(100,000 characters, 99,800 not shown)")
  }

  func testAStringIsCutOnACharacterBoundaryPastTheLimit() {
    var elision = Elision.standard
    elision.characters = 3
    XCTAssertNil(elision.cut(string: "abc"))
    XCTAssertNil(elision.cut(string: "éèê"))  // 6 bytes, 3 characters: not cut
    let cut = elision.cut(string: "éèêë")
    XCTAssertEqual(cut?.shown, "éèê")
    XCTAssertEqual(cut?.total, 4)
    XCTAssertEqual(elision.cut(oneLine: "abcdef"), "abc… (6 characters, 3 not shown)")
  }

  func testTextIsCutPastItsLinesOrItsCharacters() {
    var elision = Elision.standard
    elision.textLines = 3
    elision.textCharacters = 20
    XCTAssertEqual(elision.cut(text: "a\nb\nc"), "a\nb\nc")
    XCTAssertEqual(elision.cut(text: "a\nb\nc\nd\ne"), "a\nb\nc\n… 2 more lines")
    XCTAssertEqual(elision.cut(text: String(repeating: "x", count: 100)), String(repeating: "x", count: 20) + "… (100 characters, 80 not shown)")
    // Whichever comes first: here the characters.
    XCTAssertEqual(elision.cut(text: String(repeating: "y", count: 100) + "\n1\n2\n3"), String(repeating: "y", count: 20) + "… (106 characters, 86 not shown)")
    XCTAssertEqual(elision.cut(printout: "1\n2\n3"), "1\n2\n3")
  }

  /// A message cut once and passed on is not cut again: a cut's note has room past the limits.
  func testCutTextIsNotCutAgain() {
    var elision = Elision.standard
    elision.textLines = 3
    elision.textCharacters = 20
    for text in ["a\nb\nc\nd\ne\nf", String(repeating: "x", count: 1_000)] {
      let cut = elision.cut(text: text)
      XCTAssertNotEqual(cut, text)
      XCTAssertEqual(elision.cut(text: cut), cut)
    }
    XCTAssertEqual(elision.cut(text: "a\nb\nc\nd"), "a\nb\nc\nd")  // one line past: the note would take it
  }

  func testNoneShowsEverything() {
    let text = String(repeating: "line\n", count: 100_000)
    XCTAssertEqual(Elision.none.cut(text: text), text)
    XCTAssertNil(Elision.none.cut(string: text))
  }

  /// A Swift feature's state mismatch is dumped by CustomDump and cut to the printout's lines.
  @MainActor
  func testATestStoreDiffOfAHugeSwiftStateIsCutToAScreenful() async {
    struct Rows: Reducer {
      struct State: Equatable { var rows: [Int] = [] }
      enum Action: Equatable { case fill }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        state.rows = Array(1...10_000)
        return .none
      }
    }
    let failures = FailureCollector()
    let store = TestStore(initialState: Rows.State(), reducer: Rows(), reporter: failures.reporter)
    await store.send(.fill)
    XCTAssertEqual(failures.messages.count, 1)
    let message = failures.messages.first ?? ""
    XCTAssertTrue(message.hasPrefix("State was not expected to change"), message)
    XCTAssertLessThanOrEqual(message.split(separator: "\n").count, Elision.standard.lines + 8, message)
    XCTAssertTrue(message.contains(" more lines"), message)
  }
}
