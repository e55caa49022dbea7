import Composable
import XCTest
@testable import Relua
@testable import ReluaConsole

/// What the REPL tells its event observer (the inspector's feed).
@MainActor
final class ConsoleEventTests: XCTestCase {
  private var events: [ConsoleEvent] = []
  private var repl: ReplSession!

  override func setUp() async throws {
    events = []
    repl = try await ReplSession { [unowned self] in self.events.append($0) }
  }

  override func tearDown() async throws {
    repl.close()
  }

  func testOpeningTheFeatureIsTheFirstEventWithTheInitialState() {
    XCTAssertEqual(events.map(\.kind), [.opened(feature: "Tally", file: events.first.map { if case .opened(_, let file) = $0.kind { file } else { "" } } ?? "")])
    XCTAssertEqual(events.first?.state, ["count": 0])
  }

  func testEachActionComesWithItsPayloadSenderDiffStateAndTime() async {
    let before = Date()
    await repl.type(":increment")
    await repl.type(":setCount 5")
    XCTAssertEqual(events.dropFirst().map(\.kind), [
      .action(name: "increment", payload: "", sender: .typed),
      .action(name: "setCount", payload: "5", sender: .typed),
    ])
    XCTAssertEqual(events.last?.diff, ["  {", "−   count = 1,", "+   count = 5,", "  }"])
    XCTAssertEqual(events.last?.state, ["count": 5])
    XCTAssertGreaterThanOrEqual(events.last!.time, before)
  }

  func testAFollowUpIsItsOwnActionSentByAnEffectWithItsOwnDiff() async {
    await repl.type(":double")
    XCTAssertEqual(events.dropFirst().map(\.kind), [
      .action(name: "double", payload: "", sender: .typed),
      .action(name: "doubled", payload: "", sender: .effect),
    ])
    XCTAssertEqual(events.dropFirst().map(\.state), [["count": 1], ["count": 2]])
    XCTAssertEqual(events.last?.diff.filter { $0.contains("count") }, ["−   count = 1,", "+   count = 2,"])
  }

  func testLuaTypedAtThePromptSendsAsTyped() async {
    await repl.type(#"store:send("setCount", 3)"#)
    XCTAssertEqual(events.last?.kind, .action(name: "setCount", payload: "3", sender: .typed))
  }

  func testAFailedSendIsNeverTold() async {
    await repl.type(":increment")
    await repl.type(":fail")
    XCTAssertTrue(repl.output.contains("no"), repl.output)
    await repl.type(":increment")
    XCTAssertEqual(events.dropFirst().map(\.kind), [
      .action(name: "increment", payload: "", sender: .typed),
      .action(name: "increment", payload: "", sender: .typed),
    ])
    // Each diffed against what was told before it, not against the failed send's state.
    XCTAssertEqual(events.last?.diff.filter { $0.contains("count") }, ["−   count = 1,", "+   count = 2,"])
  }

  func testUndoRedoAndReloadAreStatesReplacedWithoutAnAction() async {
    await repl.type(":setCount 4")
    await repl.type(":undo")
    await repl.type(":redo")
    await repl.type(":reload")
    await repl.type(":increment")
    XCTAssertEqual(events.dropFirst().map(\.kind), [
      .action(name: "setCount", payload: "4", sender: .typed),
      .replaced(.undo), .replaced(.redo), .replaced(.reload),
      .action(name: "increment", payload: "", sender: .typed),
    ], repl.output)
    XCTAssertEqual(events.dropFirst().map(\.state), [["count": 4], ["count": 0], ["count": 4], ["count": 4], ["count": 5]])
    XCTAssertEqual(events[2].diff.filter { $0.contains("count") }, ["−   count = 4,", "+   count = 0,"])
    XCTAssertEqual(events[4].diff, [], "a reload keeps the state")
  }

  func testAnActionThatChangesNothingHasNoDiff() async {
    await repl.type(":setCount 0")
    XCTAssertEqual(events.last?.kind, .action(name: "setCount", payload: "0", sender: .typed))
    XCTAssertEqual(events.last?.diff, [])
  }
}
