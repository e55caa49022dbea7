import Composable
import XCTest

/// Effects driven by callbacks instead of a task (`Effect.driven`): how a host whose coroutines
/// wait without a Swift task (the Lua host) plugs into the store.
@MainActor
final class DrivenEffectTests: XCTestCase {
  enum Action: Equatable { case start, stop, tick(Int), child(ChildAction) }
  enum ChildAction: Equatable { case start, done }

  /// Counts `ticks` ticks on the test clock, one a second, waking from the clock's callback.
  static func ticker(_ ticks: Int, log: Log) -> Effect<Action> {
    .driven(place: "Ticker.swift:1") { effect in
      let clock = DependencyValues.current.clock as! TestStoreClock
      var count = 0
      var cancelSleep: (@MainActor () -> Void)?
      @MainActor func sleep() {
        effect.step {
          cancelSleep = clock.schedule(until: clock.now.advanced(by: .seconds(1))) {
            count += 1
            effect.send(.tick(count))
            if count == ticks { effect.finish() } else { sleep() }
          }
        }
      }
      effect.onCancel {
        log.events.append("cancelled at \(count)")
        cancelSleep?()
      }
      sleep()
    }
  }

  final class Log { var events: [String] = [] }

  /// A store whose `start` runs a ticker (cancellable as "ticker", which `stop` cancels) on a
  /// test clock; each tick is the state.
  private func tickerStore(ticks: Int) -> (TestStore<Int, Action>, TestStoreClock, Log) {
    let clock = TestStoreClock()
    let log = Log()
    let store = TestStore(initialState: 0, reducer: Reduce<Int, Action> { state, action in
      switch action {
      case .start: return Self.ticker(ticks, log: log).cancellable(id: "ticker")
      case .stop: return .cancel(id: "ticker")
      case let .tick(n): state = n; return .none
      default: return .none
      }
    }) { $0.clock = clock }
    return (store, clock, log)
  }

  func testWakesFromTheClockAndSendsInOrder() async {
    let (store, clock, log) = tickerStore(ticks: 3)
    await store.send(.start)
    await store.advance(clock, by: .seconds(2))
    await store.receive(.tick(1)) { $0 = 1 }
    await store.receive(.tick(2)) { $0 = 2 }
    await store.advance(clock, by: .seconds(1))
    await store.receive(.tick(3)) { $0 = 3 }
    await store.finish()
    XCTAssertEqual(log.events, [])
  }

  func testCancellingCallsTheHandlerAndDropsLaterSends() async {
    let (store, clock, log) = tickerStore(ticks: 10)
    await store.send(.start)
    await store.advance(clock, by: .seconds(1))
    await store.receive(.tick(1)) { $0 = 1 }
    await store.send(.stop)
    XCTAssertEqual(log.events, ["cancelled at 1"])
    await store.advance(clock, by: .seconds(5))
    await store.finish()
  }

  func testCancelledBeforeItsTurnNeverStarts() async {
    var started = false
    let store = Store(initialState: 0, reducer: Reduce<Int, Action> { _, action in
      guard action == .start else { return .none }
      return .merge(
        Effect.driven(place: "here") { effect in
          started = true
          effect.finish()
        }.cancellable(id: "x"),
        .cancel(id: "x"))
    })
    store.send(.start)
    await store.waitForEffects()
    await Task.yield()
    XCTAssertFalse(started)
    XCTAssertEqual(store.effectsInFlight, 0)
  }

  /// A child's driven effect, scoped into its parent: its sends arrive embedded, and the
  /// dependencies the child's effect was made with are current in every step, also the ones a
  /// callback runs long after the send.
  func testAScopedChildEffectSendsThroughItsParentWithItsDependencies() async {
    let clock = TestStoreClock()
    let child = Reduce<Int, ChildAction> { state, action in
      switch action {
      case .start:
        return .driven(place: "Child.swift:1") { effect in
          effect.step {
            let clock = DependencyValues.current.clock as! TestStoreClock
            _ = clock.schedule(until: clock.now.advanced(by: .seconds(1))) {
              effect.step {
                // A later step: the effect's dependencies again, not the advancing test's.
                XCTAssertTrue(DependencyValues.current.clock as? TestStoreClock === clock)
                effect.send(.done)
                effect.finish()
              }
            }
          }
        }
      case .done:
        state += 1
        return .none
      }
    }
    let parent = Reduce<Int, Action> { state, action in
      guard case let .child(childAction) = action else { return .none }
      return child.reduce(into: &state, action: childAction).map(Action.child)
    }
    let store = TestStore(initialState: 0, reducer: parent) { $0.clock = clock }
    await store.send(.child(.start))
    await store.advance(clock, by: .seconds(1))
    await store.receive(.child(.done)) { $0 = 1 }
    await store.finish()
  }

  /// Inside a concatenation a driven effect runs hosted in a task: the next one starts when it
  /// has finished.
  func testInAConcatenationEachFinishesBeforeTheNextStarts() async {
    let clock = TestStoreClock()
    let store = TestStore(initialState: 0, reducer: Reduce<Int, Action> { state, action in
      switch action {
      case .start:
        func waitThenTick(_ n: Int) -> Effect<Action> {
          .driven(place: "here") { effect in
            effect.step {
              _ = clock.schedule(until: clock.now.advanced(by: .seconds(1))) {
                effect.send(.tick(n))
                effect.finish()
              }
            }
          }
        }
        return .concatenate(waitThenTick(1), waitThenTick(2))
      case let .tick(n): state = n; return .none
      default: return .none
      }
    }) { $0.clock = clock }
    await store.send(.start)
    await store.advance(clock, by: .seconds(1))
    await store.receive(.tick(1)) { $0 = 1 }
    await store.advance(clock, by: .seconds(1))
    await store.receive(.tick(2)) { $0 = 2 }
    await store.finish()
  }

  func testAnErrorBecomesAWarningNamingThePlace() async {
    struct Broken: Error, CustomStringConvertible { var description: String { "it broke" } }
    let store = Store(initialState: 0, reducer: Reduce<Int, Action> { _, action in
      guard action == .start else { return .none }
      return .driven(place: "Feature.lua:12") { effect in effect.finish(throwing: Broken()) }
    })
    store.send(.start)
    await store.waitForEffects()
    XCTAssertEqual(
      store.warnings.map(\.message),
      ["An \"Effect.run\" returned from \"Feature.lua:12\" threw an unhandled error: it broke"])
  }
}
