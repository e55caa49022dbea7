import Composable
import XCTest

/// `TestStore.advance(_:by:)` with a `TestStoreClock` is exact: it neither depends on how soon
/// effects reach their sleeps nor on how the scheduler orders their tasks.
@MainActor
final class TestStoreClockTests: XCTestCase {
  enum Action: Equatable { case start, fired, tick(Int), other, load, query, searched }

  /// The effect spends 50 ms of real time before it sleeps: an advance right after the send must
  /// wait for that sleep, not move past it (swift-clocks' `TestClock` does, and the sleep never ends).
  func testAdvanceWaitsForAnEffectToReachItsSleep() async {
    let clock = TestStoreClock()
    let reducer = Reduce<Int, Action> { state, action in
      switch action {
      case .start:
        return .run { send in
          try await Task.sleep(for: .milliseconds(50))
          try await clock.sleep(for: .seconds(1))
          await send(.fired)
        }
      case .fired: state += 1; return .none
      default: return .none
      }
    }
    let failures = FailureCollector()
    let store = TestStore(initialState: 0, reducer: reducer, reporter: failures.reporter)
    await store.send(.start)
    await store.advance(clock, by: .seconds(1))
    await store.receive(.fired, timeout: .zero) { $0 = 1 }  // already there: no waiting
    await store.finish()
    XCTAssertEqual(failures.messages, [])
  }

  /// Time moves from deadline to deadline, so effects woken early sleep again and run again
  /// within one advance, in the order of their deadlines; nothing due after the target runs.
  func testAdvanceRunsEverySleepUpToTheTargetInDeadlineOrder() async {
    let clock = TestStoreClock()
    let reducer = Reduce<[Action], Action> { state, action in
      switch action {
      case .start:
        return .merge(
          .run { send in
            for n in 1...4 {
              try await clock.sleep(for: .seconds(1))
              await send(.tick(n))
            }
          },
          .concatenate(
            .run { _ in try await clock.sleep(for: .milliseconds(2500)) },
            .send(.other)
          )
        )
      default: state.append(action); return .none
      }
    }
    let failures = FailureCollector()
    let store = TestStore(initialState: [], reducer: reducer, reporter: failures.reporter)
    await store.send(.start)
    await store.advance(clock, by: .seconds(3))
    await store.receive(.tick(1), timeout: .zero) { $0 = [.tick(1)] }
    await store.receive(.tick(2), timeout: .zero) { $0.append(.tick(2)) }
    await store.receive(.other, timeout: .zero) { $0.append(.other) }
    await store.receive(.tick(3), timeout: .zero) { $0.append(.tick(3)) }
    XCTAssertEqual(clock.now, TestStoreClock.Instant(offset: .seconds(3)))
    await store.advance(clock, by: .seconds(1))
    await store.receive(.tick(4), timeout: .zero) { $0.append(.tick(4)) }
    await store.finish()
    XCTAssertEqual(failures.messages, [])
  }

  /// A load cancelled by the next send has run (it made its request), and never delivers; the
  /// debounced search that cancelled it fires on time. Repeated: the race this guards against was
  /// a matter of scheduling.
  func testAnEffectCancelledByTheNextSendHasStartedAndNeverDelivers() async {
    for _ in 0..<100 {
      let clock = TestStoreClock()
      let requests = LockIsolated(0)
      let reducer = Reduce<Int, Action> { _, action in
        switch action {
        case .load:
          return .runOnMainActor { send in
            requests.withValue { $0 += 1 }
            try await clock.sleep(for: .seconds(5))
            send(.fired)
          }
          .cancellable(id: "search", cancelInFlight: true)
        case .query:
          return .run { send in await send(.searched) }
            .debounce(id: "search", for: .milliseconds(300), clock: clock)
        default: return .none
        }
      }
      let failures = FailureCollector()
      let store = TestStore(initialState: 0, reducer: reducer, reporter: failures.reporter)
      await store.send(.load)
      await store.send(.query)
      await store.advance(clock, by: .milliseconds(300))
      await store.receive(.searched, timeout: .zero)
      await store.advance(clock, by: .seconds(10))
      await store.finish()
      XCTAssertEqual(failures.messages, [])
      XCTAssertEqual(requests.value, 1)
    }
  }

  func testACancelledSleepEndsAtOnce() async throws {
    let clock = TestStoreClock()
    let task = Task { try await clock.sleep(for: .seconds(1)) }
    task.cancel()
    do {
      try await task.value
      XCTFail("the sleep should have been cancelled")
    } catch {
      XCTAssert(error is CancellationError)
    }
  }
}
