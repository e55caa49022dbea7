import Composable
import XCTest

/// `Store.send`'s `StoreTask` and `TestStore.send`'s `TestStoreTask`: the effects a send started.
@MainActor
final class StoreTaskTests: XCTestCase {
  enum Action: Equatable { case noop, start, forever, viaFollowUp, response, chain, tick }

  /// `start` sends `response` after 20 ms; `forever` never ends; `chain` starts an effect that
  /// sends `start` (whose effect is then not the chain's).
  static let reducer = Reduce<Int, Action> { state, action in
    switch action {
    case .noop: return .none
    case .start:
      return .run { send in
        try? await Task.sleep(for: .milliseconds(20))
        await send(.response)
      }
    case .forever:
      return .run { _ in try? await Task.sleep(for: .seconds(3600)) }
    case .viaFollowUp: return .send(.forever)
    case .response:
      state += 1
      return .none
    case .chain:
      return .run { send in await send(.forever) }
    case .tick:
      state += 100
      return .none
    }
  }

  func testASendWithoutEffectsGivesAnEmptyTaskCancelledAsTCAs() async {
    let store = Store(initialState: 0, reducer: Self.reducer)
    let task = store.send(.noop)
    XCTAssertFalse(task.startedEffects)
    XCTAssertTrue(task.isCancelled)
    XCTAssertTrue(task.isFinished)
    await task.finish()
    let finished = await task.finish(timeout: .zero)
    XCTAssertTrue(finished)
    XCTAssertEqual(task, StoreTask())
  }

  func testFinishWaitsForTheSendsEffects() async {
    let store = Store(initialState: 0, reducer: Self.reducer)
    let task = store.send(.start)
    XCTAssertTrue(task.startedEffects)
    XCTAssertFalse(task.isCancelled)
    XCTAssertFalse(task.isFinished)
    await task.finish()
    XCTAssertTrue(task.isFinished)
    XCTAssertEqual(store.state, 1)
  }

  func testCancelStopsTheEffectAndItsActionNeverArrives() async {
    let store = Store(initialState: 0, reducer: Self.reducer)
    let task = store.send(.start)
    let copy = task
    copy.cancel()
    XCTAssertTrue(task.isCancelled)
    XCTAssertEqual(store.effectsInFlight, 0)
    try? await Task.sleep(for: .milliseconds(60))
    XCTAssertEqual(store.state, 0)
  }

  func testFinishWithTimeoutTellsWhetherTheEffectsEnded() async {
    let store = Store(initialState: 0, reducer: Self.reducer)
    let task = store.send(.forever)
    let finished = await task.finish(timeout: .milliseconds(20))
    XCTAssertFalse(finished)
    task.cancel()
    let afterCancel = await task.finish(timeout: .milliseconds(20))
    XCTAssertTrue(afterCancel)
  }

  func testATaskCoversItsSynchronousFollowUpsEffects() async {
    let store = Store(initialState: 0, reducer: Self.reducer)
    let task = store.send(.viaFollowUp)
    XCTAssertEqual(store.effectsInFlight, 1)
    task.cancel()
    XCTAssertEqual(store.effectsInFlight, 0)
  }

  func testATaskDoesNotCoverEffectsOfActionsItsEffectsSendLater() async {
    let store = Store(initialState: 0, reducer: Self.reducer)
    let task = store.send(.chain)
    await task.finish()
    XCTAssertEqual(store.effectsInFlight, 1, "the effect of `forever`, received from the chain")
    task.cancel()
    XCTAssertEqual(store.effectsInFlight, 1)
    store.cancelAllEffects()
  }

  func testTasksOfTwoSendsAreApart() async {
    let store = Store(initialState: 0, reducer: Self.reducer)
    let first = store.send(.forever)
    let second = store.send(.start)
    XCTAssertNotEqual(first, second)
    first.cancel()
    XCTAssertEqual(store.effectsInFlight, 1)
    await second.finish()
    XCTAssertEqual(store.state, 1)
  }

  func testAScopedStoreGivesTheRootsTask() async {
    let store = Store(initialState: 0, reducer: Self.reducer)
    let scoped = store.scope(state: { $0 }, action: { $0 })
    let task = scoped.send(.forever)
    XCTAssertTrue(task.startedEffects)
    task.cancel()
    XCTAssertEqual(store.effectsInFlight, 0)
    XCTAssertFalse(try scoped.sendChecked(.noop).startedEffects)
  }

  // MARK: TestStoreTask

  func testTestStoreTaskCancel() async {
    let failures = FailureCollector()
    let store = TestStore(initialState: 0, reducer: Self.reducer, reporter: failures.reporter)
    let task = await store.send(.forever)
    XCTAssertFalse(task.isCancelled)
    await task.cancel()
    XCTAssertTrue(task.isCancelled)
    await store.finish()
    XCTAssertEqual(failures.messages, [])
  }

  func testTestStoreTaskOfASendWithoutEffectsIsNotCancelled() async {
    let store = TestStore(initialState: 0, reducer: Self.reducer)
    let task = await store.send(.noop)
    XCTAssertFalse(task.isCancelled)
    await task.finish()
    await task.cancel()
    XCTAssertTrue(task.isCancelled)
  }

  func testTestStoreTimeoutIsOneSecondAsTCAs() {
    let store = TestStore(initialState: 0, reducer: Self.reducer)
    XCTAssertEqual(store.timeout, .seconds(1))
  }

  func testTestStoreTaskFinishFailsWhenStillInFlight() async {
    let failures = FailureCollector()
    let store = TestStore(initialState: 0, reducer: Self.reducer, reporter: failures.reporter)
    store.timeout = .milliseconds(30)
    let task = await store.send(.forever)
    await task.finish()
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssert(
      failures.messages[0].hasPrefix("Expected task to finish, but it is still in-flight after 0.03s.\n\n"),
      failures.messages[0])
    XCTAssert(failures.messages[0].hasSuffix("configure this assertion with an explicit \"timeout\"."), failures.messages[0])
    await task.finish(timeout: .milliseconds(10))
    XCTAssert(failures.messages[1].contains("after 0.01s."), failures.messages[1])
    XCTAssert(failures.messages[1].hasSuffix("try increasing the duration of this assertion's \"timeout\"."))
    await store.skipInFlightEffects()
  }

  func testTestStoreTaskFinishPassesForAnEffectThatEnds() async {
    let failures = FailureCollector()
    let store = TestStore(initialState: 0, reducer: Self.reducer, reporter: failures.reporter)
    let task = await store.send(.start)
    await task.finish()
    await store.receive(.response) { $0 = 1 }
    XCTAssertEqual(failures.messages, [])
  }
}
