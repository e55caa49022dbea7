import Dispatch
import XCTest

@testable import Composable

/// Where nonisolated async code runs: on the main actor's queue while `MainSerialExecutor` is in
/// use, on the global executor's threads otherwise.
@MainActor
final class MainSerialExecutorTests: XCTestCase {
  nonisolated private static let mainQueueKey = DispatchSpecificKey<Int>()

  override func setUp() async throws {
    DispatchQueue.main.setSpecific(key: Self.mainQueueKey, value: 1)
  }


  func testNonisolatedCodeRunsOnTheMainQueueOnlyWhileInUse() async throws {
    await untilNoStoreOfAnotherTestIsAlive()
    try XCTSkipIf(MainSerialExecutor.isInUse, "a test store of another test is still alive")
    let onMainBefore = await runsOnMainQueue(Self.mainQueueKey)
    XCTAssertFalse(onMainBefore)

    MainSerialExecutor.acquire()
    XCTAssertTrue(MainSerialExecutor.isInUse)
    let onMainDuring = await runsOnMainQueue(Self.mainQueueKey)
    XCTAssertTrue(onMainDuring)

    // Uses nest: the executor stays until the last release.
    MainSerialExecutor.acquire()
    MainSerialExecutor.release()
    let onMainNested = await runsOnMainQueue(Self.mainQueueKey)
    XCTAssertTrue(onMainNested)

    MainSerialExecutor.release()
    XCTAssertFalse(MainSerialExecutor.isInUse)
    let onMainAfter = await runsOnMainQueue(Self.mainQueueKey)
    XCTAssertFalse(onMainAfter)
  }

  func testATestStoreUsesItForItsLifeUnlessTurnedOff() async throws {
    await untilNoStoreOfAnotherTestIsAlive()
    try XCTSkipIf(MainSerialExecutor.isInUse, "a test store of another test is still alive")
    enum Action: Equatable { case noop }
    var store: TestStore<Int, Action>? = TestStore(initialState: 0, reducer: EmptyReducer<Int, Action>())
    XCTAssertTrue(MainSerialExecutor.isInUse)
    let onMain = await runsOnMainQueue(Self.mainQueueKey)
    XCTAssertTrue(onMain)

    store?.useMainSerialExecutor = false
    XCTAssertFalse(MainSerialExecutor.isInUse)
    store?.useMainSerialExecutor = true
    XCTAssertTrue(MainSerialExecutor.isInUse)

    store = nil
    XCTAssertFalse(MainSerialExecutor.isInUse)
  }

  func testAnEffectSendingBackRunsItsNonisolatedOperationOnTheMainQueueInATestStore() async {
    enum Action: Equatable { case start, done(Bool) }
    let store = TestStore(initialState: false, reducer: Reduce<Bool, Action> { state, action in
      switch action {
      case .start:
        return .run { send in
          let onMain = DispatchQueue.getSpecific(key: Self.mainQueueKey) == 1
          await send(.done(onMain))
        }
      case let .done(onMain):
        state = onMain
        return .none
      }
    })
    await store.send(.start)
    await store.receive(.done(true)) { $0 = true }
  }

  /// A test store's deinit runs on the main actor: released elsewhere (a Lua state closed by the
  /// previous test), it is a job that may still be queued when the next test begins.
  private func untilNoStoreOfAnotherTestIsAlive() async {
    for _ in 0..<200 where MainSerialExecutor.isInUse {
      try? await Task.sleep(for: .milliseconds(5))
    }
  }
}

/// Runs on the global executor unless its jobs are sent to the main queue.
private nonisolated func runsOnMainQueue(_ key: DispatchSpecificKey<Int>) async -> Bool {
  DispatchQueue.getSpecific(key: key) == 1
}
