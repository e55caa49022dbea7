import Composable
import XCTest

/// `Exhaustivity.off(showSkippedAssertions: true)`: what a non-exhaustive store skipped, reported
/// as notes (`reportSkippedAssertions`), never as failures.
@MainActor
final class SkippedAssertionsTests: XCTestCase {
  @MainActor final class Reports {
    var failures: [String] = []
    var skipped: [String] = []
    var reporter: ClosureTestFailureReporter {
      ClosureTestFailureReporter({ [unowned self] message, _ in self.failures.append(message) },
        skipped: { [unowned self] message, _ in self.skipped.append(message) })
    }
  }

  struct State: Equatable { var count = 0; var isEven = true; var loggedIn = false }
  enum Action: Equatable { case increment, login, loggedIn(Bool), forever }
  static let reducer = Reduce<State, Action> { state, action in
    switch action {
    case .increment:
      state.count += 1
      state.isEven.toggle()
      return .none
    case .login:
      state.count += 1
      return .send(.loggedIn(true))
    case let .loggedIn(value):
      state.loggedIn = value
      return .none
    case .forever:
      return .run { _ in try? await Task.sleep(for: .seconds(3600)) }
    }
  }

  private func store(_ reports: Reports, show: Bool = true) -> TestStore<State, Action> {
    let store = TestStore(initialState: State(), reducer: Self.reducer, reporter: reports.reporter)
    store.exhaustivity = .off(showSkippedAssertions: show)
    return store
  }

  func testAnUnassertedStateChangeIsNotedWithTheExhaustiveDiff() async {
    let reports = Reports()
    let store = store(reports)
    await store.send(.increment) { $0.count = 1 }
    XCTAssertEqual(reports.failures, [])
    XCTAssertEqual(reports.skipped.count, 1)
    let note = reports.skipped[0]
    XCTAssert(note.hasPrefix("Skipped assertions.\n\nA state change does not match expectation: …"), note)
    XCTAssert(note.contains("isEven: true"), note)
    XCTAssert(note.contains("isEven: false"), note)
    XCTAssert(note.hasSuffix("(Expected: −, Actual: +)"), note)
  }

  func testAFullyAssertedChangeIsNoNote() async {
    let reports = Reports()
    let store = store(reports)
    await store.send(.increment) {
      $0.count = 1
      $0.isEven = false
    }
    XCTAssertEqual(reports.skipped, [])
  }

  func testAWrongAssertionStillFails() async {
    let reports = Reports()
    let store = store(reports)
    await store.send(.increment) { $0.count = 5 }
    XCTAssertEqual(reports.failures.count, 1)
    XCTAssert(reports.failures[0].hasPrefix("A state change does not match expectation"))
    XCTAssertEqual(reports.skipped, [])
  }

  func testSkippedReceivedActionsAreNoted() async {
    let reports = Reports()
    let store = store(reports)
    await store.send(.login) { $0.count = 1 }
    await store.send(.increment) { $0.count = 2; $0.isEven = false }
    XCTAssertEqual(reports.failures, [])
    XCTAssertEqual(reports.skipped.count, 1)
    XCTAssert(reports.skipped[0].hasPrefix("Skipped assertions.\n\n1 received action was skipped: …\n\n  "), reports.skipped[0])
    XCTAssert(reports.skipped[0].contains("loggedIn"), reports.skipped[0])
  }

  func testEffectsCancelledAtTheEndAreNotedWithTheirActions() async {
    let reports = Reports()
    let store = store(reports)
    await store.send(.forever)
    await store.send(.forever)
    store.assertNothingPending()
    XCTAssertEqual(reports.failures, [])
    XCTAssertEqual(reports.skipped.count, 1)
    XCTAssert(
      reports.skipped[0].hasPrefix("Skipped assertions.\n\n2 in-flight effects were cancelled, originating from: …\n\n  "),
      reports.skipped[0])
    XCTAssert(reports.skipped[0].contains("forever"), reports.skipped[0])
    XCTAssertEqual(store.store.effectsInFlight, 0)
  }

  func testNothingIsNotedWithoutShowSkippedAssertions() async {
    let reports = Reports()
    let store = store(reports, show: false)
    await store.send(.increment) { $0.count = 1 }
    await store.send(.login)
    await store.send(.forever)
    store.assertNothingPending()
    XCTAssertEqual(reports.failures, [])
    XCTAssertEqual(reports.skipped, [])
  }

  func testExhaustiveStoresFailWhereNonExhaustiveOnesNote() async {
    let reports = Reports()
    let store = TestStore(initialState: State(), reducer: Self.reducer, reporter: reports.reporter)
    await store.send(.increment) { $0.count = 1 }
    XCTAssertEqual(reports.failures.count, 1)
    XCTAssertEqual(reports.skipped, [])
  }

  func testOffIsOffWithoutNotes() {
    XCTAssertEqual(Exhaustivity.off, .off(showSkippedAssertions: false))
    XCTAssertNotEqual(Exhaustivity.off, .off(showSkippedAssertions: true))
  }
}
