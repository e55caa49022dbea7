import Composable
import XCTest

@MainActor
final class EffectTests: XCTestCase {
  /// Actions sent by effects come back in order `[1, 2, 3, 4]`.
  func testEffectSendsArriveInOrder() async {
    enum Action: Equatable { case start, value(Int) }
    let reducer = Reduce<[Int], Action> { state, action in
      switch action {
      case .start:
        return .run { send in
          await send(.value(1))
          await send(.value(2))
          await send(.value(3))
          await send(.value(4))
        }
      case let .value(n):
        state.append(n)
        return .none
      }
    }
    let store = TestStore(initialState: [], reducer: reducer)
    await store.send(.start)
    await store.receive(.value(1)) { $0 = [1] }
    await store.receive(.value(2)) { $0 = [1, 2] }
    await store.receive(.value(3)) { $0 = [1, 2, 3] }
    await store.receive(.value(4)) { $0 = [1, 2, 3, 4] }
  }

  struct Search: Reducer {
    struct State: Equatable { var query = ""; var requests = 0; var results: [String] = [] }
    enum Action: Equatable { case queryChanged(String), response(String) }
    @Dependency(\.clock) var clock
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .queryChanged(query):
        state.query = query
        return .run { send in await send(.response(query.uppercased())) }
          .debounce(id: "search", for: .milliseconds(300), clock: clock)
      case let .response(result):
        state.requests += 1
        state.results.append(result)
        return .none
      }
    }
  }

  func testDebounceSendsOnlyTheLastValue() async {
    let clock = TestStoreClock()
    let store = TestStore(initialState: Search.State(), reducer: Search()) { $0.clock = clock }
    await store.send(.queryChanged("t")) { $0.query = "t" }
    await store.advance(clock, by: .milliseconds(200))
    await store.send(.queryChanged("tca")) { $0.query = "tca" }
    await store.advance(clock, by: .milliseconds(200))
    await store.advance(clock, by: .milliseconds(100))
    await store.receive(.response("TCA")) {
      $0.requests = 1
      $0.results = ["TCA"]
    }
    await store.finish()
  }

  func testCancelInFlight() async {
    enum Action: Equatable { case start(Int), done(Int) }
    let clock = TestStoreClock()
    let reducer = Reduce<[Int], Action> { state, action in
      switch action {
      case let .start(n):
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.done(n))
        }
        .cancellable(id: "work", cancelInFlight: true)
      case let .done(n):
        state.append(n)
        return .none
      }
    }
    let store = TestStore(initialState: [], reducer: reducer)
    await store.send(.start(1))
    await store.advance(clock, by: .milliseconds(500))
    await store.send(.start(2))
    await store.advance(clock, by: .seconds(1))
    await store.receive(.done(2)) { $0 = [2] }
    await store.finish()
  }

  /// A child's cancellation ids are scoped to its place: it cannot cancel its sibling's effects.
  func testSiblingCannotCancelSibling() async {
    struct Child: Reducer {
      struct State: Equatable, Identifiable { var id: Int; var done = false }
      enum Action: Equatable { case start, stop, done }
      let clock: TestStoreClock
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start:
          return .run { send in
            try await clock.sleep(for: .seconds(1))
            await send(.done)
          }
          .cancellable(id: "timer")
        case .stop: return .cancel(id: "timer")
        case .done: state.done = true; return .none
        }
      }
    }
    struct Parent: Reducer {
      struct State: Equatable { var children: IdentifiedArrayOf<Child.State> }
      enum Action: Equatable { case child(IdentifiedAction<Int, Child.Action>) }
      let clock: TestStoreClock
      var body: some Reducer<State, Action> {
        EmptyReducer()
          .forEach(\.children, action: CaseLens(Action.child) { if case let .child(a) = $0 { a } else { nil } }) {
            Child(clock: clock)
          }
      }
    }
    let clock = TestStoreClock()
    let store = TestStore(
      initialState: Parent.State(children: [.init(id: 1), .init(id: 2)]), reducer: Parent(clock: clock))
    await store.send(.child(.element(id: 1, action: .start)))
    await store.send(.child(.element(id: 2, action: .start)))
    await store.send(.child(.element(id: 2, action: .stop)))
    await store.advance(clock, by: .seconds(1))
    await store.receive(.child(.element(id: 1, action: .done))) { $0.children[id: 1]?.done = true }
    await store.finish()
  }

  /// Removing an element cancels its effects.
  func testForEachCancelsEffectsOfRemovedElement() async {
    struct Parent: Reducer {
      struct State: Equatable { var timers: IdentifiedArrayOf<Timer.State> }
      enum Action: Equatable { case timer(IdentifiedAction<Int, Timer.Action>), remove(Int) }
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          if case let .remove(id) = action { state.timers.remove(id: id) }
          return .none
        }
        .forEach(\.timers, action: CaseLens(Action.timer) { if case let .timer(a) = $0 { a } else { nil } }) {
          Timer()
        }
      }
    }
    let clock = TestStoreClock()
    let store = TestStore(initialState: Parent.State(timers: [.init(id: 1)]), reducer: Parent()) { $0.clock = clock }
    await store.send(.timer(.element(id: 1, action: .start)))
    await store.advance(clock, by: .seconds(1))
    await store.receive(.timer(.element(id: 1, action: .tick))) { $0.timers[id: 1]?.ticks = 1 }
    await store.send(.remove(1)) { $0.timers = [] }
    await store.advance(clock, by: .seconds(5))
    await store.finish()
  }

  /// ifLet: nilling the child cancels its running timer.
  func testIfLetCancelsChildEffectsWhenNilled() async {
    struct Parent: Reducer {
      struct State: Equatable { var timer: Timer.State? }
      enum Action: Equatable { case toggle, timer(Timer.Action) }
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          if case .toggle = action { state.timer = state.timer == nil ? Timer.State() : nil }
          return .none
        }
        .ifLet(\.timer, action: CaseLens(Action.timer) { if case let .timer(a) = $0 { a } else { nil } }) {
          Timer()
        }
      }
    }
    let clock = TestStoreClock()
    let store = TestStore(initialState: Parent.State(), reducer: Parent()) { $0.clock = clock }
    await store.send(.toggle) { $0.timer = Timer.State() }
    await store.send(.timer(.start))
    await store.advance(clock, by: .seconds(1))
    await store.receive(.timer(.tick)) { $0.timer?.ticks = 1 }
    await store.advance(clock, by: .seconds(1))
    await store.receive(.timer(.tick)) { $0.timer?.ticks = 2 }
    await store.send(.toggle) { $0.timer = nil }
    await store.advance(clock, by: .seconds(10))
    await store.finish()
  }

  /// TCA's ifLet over an Identifiable child: a child replaced in place by one of another id is a
  /// new child — the old one's effects are cancelled and their actions never arrive.
  func testIfLetCancelsEffectsOfAChildReplacedByAnotherIdentity() async {
    struct Parent: Reducer {
      struct State: Equatable { var timer: Timer.State? = Timer.State() }
      enum Action: Equatable { case replace, timer(Timer.Action) }
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          if case .replace = action { state.timer = Timer.State(id: (state.timer?.id ?? 0) + 1) }
          return .none
        }
        .ifLet(\.timer, action: CaseLens(Action.timer) { if case let .timer(a) = $0 { a } else { nil } }) {
          Timer()
        }
      }
    }
    let clock = TestStoreClock()
    let store = TestStore(initialState: Parent.State(), reducer: Parent()) { $0.clock = clock }
    await store.send(.timer(.start))
    await store.advance(clock, by: .seconds(1))
    await store.receive(.timer(.tick)) { $0.timer?.ticks = 1 }
    await store.send(.replace) { $0.timer = Timer.State(id: 1) }
    await store.advance(clock, by: .seconds(10))
    await store.finish()
  }

  /// An action for an absent child is a warning collected by the store, never a crash.
  func testActionForAbsentChildIsCollectedWarning() async {
    struct Parent: Reducer {
      struct State: Equatable { var counter: Counter.State? }
      enum Action: Equatable { case counter(Counter.Action) }
      var body: some Reducer<State, Action> {
        EmptyReducer()
          .ifLet(\.counter, action: CaseLens(Action.counter) { if case let .counter(a) = $0 { a } else { nil } }) {
            Counter()
          }
      }
    }
    let store = Store(initialState: Parent.State(), reducer: Parent())
    store.send(.counter(.increment))
    XCTAssertNil(store.state.counter)
    XCTAssertEqual(store.warnings.count, 1)
    let message = store.warnings[0].message
    XCTAssert(message.contains("ifLet"), message)
    XCTAssert(message.contains("EffectTests.swift:"), message)
    XCTAssert(message.contains("increment"), message)
  }

  func testRunErrorWithoutHandlerIsWarning() async {
    struct Boom: Error {}
    let store = Store(initialState: 0, reducer: Reduce<Int, Void> { _, _ in .run { _ in throw Boom() } })
    store.send(())
    await store.waitForEffects()
    XCTAssertEqual(store.warnings.count, 1)
    XCTAssert(store.warnings[0].message.contains("Boom"))
  }

  func testRunErrorGoesToCatchHandler() async {
    struct Boom: Error {}
    enum Action: Equatable { case go, failed }
    let store = TestStore(initialState: 0, reducer: Reduce<Int, Action> { state, action in
      switch action {
      case .go: return .run { _ in throw Boom() } catch: { _, send in await send(.failed) }
      case .failed: state = -1; return .none
      }
    })
    await store.send(.go)
    await store.receive(.failed) { $0 = -1 }
  }

  func testConcatenateRunsInOrder() async {
    enum Action: Equatable { case go, value(Int) }
    let clock = TestStoreClock()
    let store = TestStore(initialState: [Int](), reducer: Reduce<[Int], Action> { state, action in
      switch action {
      case .go:
        return .concatenate(
          .run { send in try await clock.sleep(for: .seconds(1)); await send(.value(1)) },
          .run { send in await send(.value(2)) })
      case let .value(n): state.append(n); return .none
      }
    })
    await store.send(.go)
    await store.advance(clock, by: .seconds(1))
    await store.receive(.value(1)) { $0 = [1] }
    await store.receive(.value(2)) { $0 = [1, 2] }
    await store.finish()
  }

  func testThrottleLatest() async {
    enum Action: Equatable { case tap(Int), value(Int) }
    let clock = TestStoreClock()
    let store = TestStore(initialState: [Int](), reducer: Reduce<[Int], Action> { state, action in
      switch action {
      case let .tap(n): return Effect.send(.value(n)).throttle(id: "t", for: .seconds(1), clock: clock, latest: true)
      case let .value(n): state.append(n); return .none
      }
    })
    await store.send(.tap(1))
    await store.receive(.value(1)) { $0 = [1] }
    await store.send(.tap(2))
    await store.send(.tap(3))
    await store.advance(clock, by: .seconds(1))
    await store.receive(.value(3)) { $0 = [1, 3] }
    await store.finish()
  }
}
