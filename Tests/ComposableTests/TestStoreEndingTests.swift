import Composable
import XCTest

/// The TestStore's steps beyond send and receive, in Swift (issue #34): a root feature that
/// dismisses itself (`isDismissed`), the state asserted without an action (`assert`), and
/// exhaustivity for a block (`withExhaustivity`).
@MainActor
final class TestStoreEndingTests: XCTestCase {
  struct Screen: Reducer {
    struct State: Equatable { var ticks = 0 }
    enum Action: Equatable { case onTask, tick, close }
    @Dependency(\.dismiss) var dismiss
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .onTask:
        // A loop that only the dismissal ends.
        return .run { _ in try? await Task.sleep(for: .seconds(3600)) }
      case .tick:
        state.ticks += 1
        return .none
      case .close:
        let dismiss = self.dismiss
        return .run { _ in await dismiss() }
      }
    }
  }

  func testARootThatDismissesItselfSkipsItsEffectsAndRefusesLaterSends() async {
    let failures = FailureCollector()
    let store = TestStore(initialState: Screen.State(), reducer: Screen(), reporter: failures.reporter)
    await store.send(.onTask)
    XCTAssertFalse(store.isDismissed)
    await store.send(.close)
    await store.finish()
    XCTAssertTrue(store.isDismissed)
    XCTAssertEqual(failures.messages, [])  // the endless effect was cancelled, not "still running"
    await store.send(.tick)
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssert(failures.messages[0].hasPrefix("Can't send action to dismissed test store: "), failures.messages[0])
    XCTAssertEqual(store.state.ticks, 0)
  }

  func testAssertChecksTheStateWithoutAnAction() async {
    let failures = FailureCollector()
    let store = TestStore(initialState: Counter.State(), reducer: Counter(), reporter: failures.reporter)
    await store.send(.increment) { $0.count = 1 }
    store.assert { $0.count = 1 }
    store.assert { _ in }
    XCTAssertEqual(failures.messages, [])
    store.assert { $0.count = 2 }
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssert(failures.messages[0].hasPrefix("A state change does not match expectation: …"), failures.messages[0])
  }

  func testWithExhaustivityIsForTheBlockOnly() async throws {
    let failures = FailureCollector()
    let store = TestStore(initialState: Counter.State(), reducer: Counter(), reporter: failures.reporter)
    await store.withExhaustivity(.off) {
      await store.send(.increment)
      XCTAssertEqual(store.exhaustivity, .off)
    }
    XCTAssertEqual(store.exhaustivity, .on)
    struct Stop: Error {}
    XCTAssertThrowsError(try store.withExhaustivity(.off) { throw Stop() })
    XCTAssertEqual(store.exhaustivity, .on)
    XCTAssertEqual(failures.messages, [])
    await store.send(.increment)
    XCTAssertEqual(failures.messages.count, 1)
  }
}
