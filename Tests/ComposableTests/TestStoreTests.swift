import Clocks
import Composable
import XCTest

@MainActor
final class TestStoreTests: XCTestCase {
  func testPassingSendAndReceive() async {
    let store = TestStore(initialState: Counter.State(), reducer: Counter())
    await store.send(.increment) { $0.count = 1 }
    await store.send(.set(5)) { $0.count = 5 }
  }

  func testWrongExpectationProducesDiff() async {
    let failures = FailureCollector()
    let store = TestStore(initialState: Counter.State(), reducer: Counter(), reporter: failures.reporter)
    await store.send(.increment) { $0.count = 2 }
    XCTAssertEqual(failures.messages.count, 1)
    let message = failures.messages[0]
    XCTAssert(message.hasPrefix("A state change does not match expectation: …"), message)
    XCTAssert(message.contains("− Counter.State(count: 2)"), message)
    XCTAssert(message.contains("+ Counter.State(count: 1)"), message)
    XCTAssert(message.hasSuffix("(Expected: −, Actual: +)"), message)
  }

  func testUnexpectedChange() async {
    let failures = FailureCollector()
    let store = TestStore(initialState: Counter.State(), reducer: Counter(), reporter: failures.reporter)
    await store.send(.increment)
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssert(failures.messages[0].hasPrefix("State was not expected to change, but a change occurred: …"))
    XCTAssert(failures.messages[0].contains("count: 1"), failures.messages[0])
    XCTAssert(failures.messages[0].hasSuffix("(Expected: −, Actual: +)"))
  }

  enum Action: Equatable { case start, response(Int), timer, tick }
  static let clockReducer = Reduce<Int, Action> { state, action in
    switch action {
    case .start: return .send(.response(42))
    case let .response(n): state = n; return .none
    case .timer:
      return .run { send in
        try await Task.sleep(for: .seconds(30))
        await send(.tick)
      }
    case .tick: return .none
    }
  }

  func testMustHandleReceivedActionsBeforeSending() async {
    let failures = FailureCollector()
    let store = TestStore(initialState: 0, reducer: Self.clockReducer, reporter: failures.reporter)
    await store.send(.start)
    await store.send(.tick)
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssert(failures.messages[0].hasPrefix("Must handle 1 received action before sending an action: …"), failures.messages[0])
  }

  func testReceivedUnexpectedAction() async {
    let failures = FailureCollector()
    let store = TestStore(initialState: 0, reducer: Self.clockReducer, reporter: failures.reporter)
    await store.send(.start)
    await store.receive(.response(7)) { $0 = 42 }
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssert(failures.messages[0].hasPrefix("Received unexpected action: …"), failures.messages[0])
    XCTAssert(failures.messages[0].contains("(Expected: −, Received: +)"), failures.messages[0])
  }

  func testReceiveTimesOut() async {
    let failures = FailureCollector()
    let store = TestStore(initialState: 0, reducer: Self.clockReducer, reporter: failures.reporter)
    await store.send(.timer)  // sends its tick in 30 s
    await store.receive(.tick, timeout: .milliseconds(50))
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssert(failures.messages[0].hasPrefix("Expected to receive"), failures.messages[0])
    XCTAssert(failures.messages[0].contains("received none after 0.05s."), failures.messages[0])
    await store.skipInFlightEffects()
  }

  /// With no effect running, nothing can send the action: receive fails at once, and says so.
  func testReceiveWithNoEffectRunningFailsAtOnce() async {
    let failures = FailureCollector()
    let store = TestStore(initialState: 0, reducer: Self.clockReducer, reporter: failures.reporter)
    let start = ContinuousClock.now
    await store.receive(.tick, timeout: .seconds(30))
    XCTAssertLessThan(ContinuousClock.now - start, .seconds(20), "receive waited for its timeout")
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssert(failures.messages[0].hasPrefix("Expected to receive an action matching"), failures.messages[0])
    XCTAssert(failures.messages[0].hasSuffix("tick, but received none: no effect is running to send it."), failures.messages[0])
  }

  func testEffectStillRunning() async {
    let failures = FailureCollector()
    let store = TestStore(initialState: 0, reducer: Self.clockReducer, reporter: failures.reporter)
    await store.send(.timer)
    await store.finish(timeout: .milliseconds(50))
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssert(
      failures.messages[0].hasPrefix(
        "An effect returned for this action is still running. It must complete before the end of the test. …"),
      failures.messages[0])
  }

  func testSkipInFlightEffectsAndReceivedActions() async {
    let failures = FailureCollector()
    let store = TestStore(initialState: 0, reducer: Self.clockReducer, reporter: failures.reporter)
    await store.send(.start)
    await store.skipReceivedActions()
    XCTAssertEqual(store.state, 42)
    await store.send(.timer)
    await store.skipInFlightEffects()
    await store.finish()
    XCTAssertEqual(failures.messages, [])
  }

  func testNonExhaustiveChecksOnlyWhatIsAsserted() async {
    struct State: Equatable { var a = 0; var b = 0 }
    let reducer = Reduce<State, Action> { state, action in
      switch action {
      case .start: state.a += 1; state.b += 1; return .send(.tick)
      default: state.b += 10; return .none
      }
    }
    let failures = FailureCollector()
    let store = TestStore(initialState: State(), reducer: reducer, reporter: failures.reporter)
    store.exhaustivity = .off
    await store.send(.start) { $0.a = 1 }
    await store.send(.start) { $0.a = 2 }
    XCTAssertEqual(failures.messages, [])
    await store.send(.start) { $0.a = 99 }
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssert(failures.messages[0].hasPrefix("A state change does not match expectation"))
  }

  func testUnimplementedDependencyFailsWithItsName() async {
    struct Feature: Reducer {
      @Dependency(\.uuid) var uuid
      func reduce(into state: inout UUID?, action: Void) -> Effect<Void> {
        state = uuid()
        return .none
      }
    }
    let failures = FailureCollector()
    let store = TestStore(initialState: nil, reducer: Feature(), reporter: failures.reporter)
    store.exhaustivity = .off
    await store.send(())
    XCTAssertEqual(failures.messages, ["Unimplemented dependency: uuid"])
  }

  func testTestClockAsDependency() async {
    struct Feature: Reducer {
      enum Action: Equatable { case start, fired }
      @Dependency(\.clock) var clock
      func reduce(into state: inout Int, action: Action) -> Effect<Action> {
        switch action {
        case .start:
          let clock = self.clock
          return .run { send in
            try await clock.sleep(for: .seconds(1))
            await send(.fired)
          }
        case .fired:
          state += 1
          return .none
        }
      }
    }
    let clock = TestClock()
    let store = TestStore(initialState: 0, reducer: Feature()) { $0.clock = clock }
    await store.send(.start)
    // `send` waits until the effect has started, not until it sleeps (it reaches `TestClock.sleep`
    // from the global executor), and `TestClock.advance` would move past a sleep registered later.
    // swift-clocks has no event for this; `checkSuspension` throws once a sleep is registered.
    let deadline = ContinuousClock.now.advanced(by: .seconds(10))
    while (try? await clock.checkSuspension()) != nil {
      guard ContinuousClock.now < deadline else { return XCTFail("the effect never slept on the clock") }
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.fired) { $0 = 1 }
    await store.finish()
  }

  func testDependencyValuesDeterministic() async {
    let uuid = UUIDGenerator.incrementing
    XCTAssertEqual(uuid(), UUID(0))
    XCTAssertEqual(uuid(), UUID(uuidString: "00000000-0000-0000-0000-000000000001"))
    let a = RandomNumber.seeded(42), b = RandomNumber.seeded(42)
    XCTAssertEqual((0..<5).map { _ in a(in: -100...100) }, (0..<5).map { _ in b(in: -100...100) })
  }

  /// `receive` and `finish` wake when an effect delivers or ends (real time here), well within their timeouts.
  func testReceiveAndFinishWakeOnEffects() async {
    enum Action: Equatable { case start, response(Int) }
    let reducer = Reduce<Int, Action> { state, action in
      switch action {
      case .start:
        return .run { send in
          try await Task.sleep(for: .milliseconds(5))
          await send(.response(1))
          try await Task.sleep(for: .milliseconds(5))
          await send(.response(2))
          try await Task.sleep(for: .milliseconds(5))
        }
      case let .response(n): state = n; return .none
      }
    }
    let failures = FailureCollector()
    let store = TestStore(initialState: 0, reducer: reducer, reporter: failures.reporter)
    let clock = ContinuousClock()
    let start = clock.now
    await store.send(.start)
    await store.receive(.response(1), timeout: .seconds(5)) { $0 = 1 }
    await store.receive(.response(2), timeout: .seconds(5)) { $0 = 2 }
    await store.finish(timeout: .seconds(5))
    XCTAssertEqual(failures.messages, [])
    XCTAssertLessThan(start.duration(to: clock.now), .seconds(4))
  }
}
