import Composable
import XCTest

@MainActor
final class StoreTests: XCTestCase {
  /// Actions sent by synchronous effects are handled first-in first-out, breadth-first.
  func testSendIsFIFOBreadthFirst() async {
    enum Action { case tap, next1, next2, end }
    var log: [Int] = []
    let reducer = Reduce<Int, Action> { state, action in
      switch action {
      case .tap: log.append(1); return .merge(.send(.next1), .send(.next2))
      case .next1: log.append(2); return .send(.end)
      case .next2: log.append(3); return .none
      case .end: log.append(4); return .none
      }
    }
    let store = Store(initialState: 0, reducer: reducer)
    store.send(.tap)
    XCTAssertEqual(log, [1, 2, 3, 4])
  }

  /// Observers see the state once per send: synchronous follow-up actions are coalesced.
  func testObserversSeeStateOncePerSend() async {
    enum Action { case incrementTwice, increment }
    let reducer = Reduce<Int, Action> { state, action in
      switch action {
      case .incrementTwice: state += 1; return .merge(.send(.increment), .send(.increment))
      case .increment: state += 1; return .none
      }
    }
    let store = Store(initialState: 0, reducer: reducer)
    var seen: [Int] = []
    let token = store.observe({ $0 }) { seen.append($0) }
    store.send(.incrementTwice)
    XCTAssertEqual(seen, [0, 3])
    token.cancel()
    store.send(.incrementTwice)
    XCTAssertEqual(seen, [0, 3])
  }

  func testObserveNotifiesOnlyWhenProjectionChanges() async {
    struct State { var a = 0; var b = 0 }
    enum Action { case a, b }
    let store = Store(initialState: State(), reducer: Reduce<State, Action> { state, action in
      switch action { case .a: state.a += 1; case .b: state.b += 1 }
      return .none
    })
    var seen: [Int] = []
    let token = store.observe(\.a) { seen.append($0) }
    store.send(.b)
    store.send(.a)
    store.send(.b)
    XCTAssertEqual(seen, [0, 1])
    _ = token
  }

  /// Sends of one action with no effect (the store's short path) between sends with follow-ups:
  /// every action is reduced once, in order, and observers are told once per send.
  func testSingleActionSendsBetweenSendsWithFollowUps() async {
    enum Action { case tap, next, plain }
    var log: [String] = []
    let reducer = Reduce<Int, Action> { state, action in
      state += 1
      switch action {
      case .tap: log.append("tap"); return .send(.next)
      case .next: log.append("next"); return .none
      case .plain: log.append("plain"); return .none
      }
    }
    let store = Store(initialState: 0, reducer: reducer)
    var told = 0
    let token = store.observeSends { _ in told += 1 }
    store.send(.plain)
    store.send(.tap)
    store.send(.plain)
    try? store.sendChecked(.plain)
    try? store.sendChecked(.tap)
    XCTAssertEqual(log, ["plain", "tap", "next", "plain", "plain", "tap", "next"])
    XCTAssertEqual(store.state, 7)
    XCTAssertEqual(told, 5)
    _ = token
  }

  func testSendFromInsideReducerIsWarned() async {
    var store: Store<Int, Bool>!
    store = Store(initialState: 0, reducer: Reduce<Int, Bool> { state, nested in
      state += 1
      if !nested { store.send(true) }
      return .none
    })
    store.send(false)
    XCTAssertEqual(store.state, 2)
    XCTAssertEqual(store.warnings.count, 1)
    XCTAssert(store.warnings[0].message.contains("inside a reducer"))
  }

  func testScopedStoreIsViewOnRoot() async {
    let parent = ReducerCompositionTests.Parent()
    let store = Store(initialState: ReducerCompositionTests.Parent.State(), reducer: parent)
    let child = store.scope(state: \.counter, action: { .counter($0) })
    var seen: [Int] = []
    let token = child.observe(\.count) { seen.append($0) }
    child.send(.increment)
    XCTAssertEqual(child.state.count, 1)
    XCTAssertEqual(store.state.counter.count, 1)
    XCTAssertEqual(store.state.log, ["parent saw 1"])
    XCTAssertEqual(seen, [0, 1])
    _ = token
  }

  struct Failing: Error {}

  /// A failing reducer leaves the state exactly as it was; none of the send's effects start.
  func testSendCheckedRestoresStateOnFailure() async {
    enum Action { case fine, fail }
    let reducer = Reduce<[Int], Action> { state, action in
      state.append(state.count)
      switch action {
      case .fine: return .none
      case .fail: return .merge(.run { _ in }, .failure(Failing()))
      }
    }
    let store = Store(initialState: [], reducer: reducer)
    try? store.sendChecked(.fine)
    XCTAssertThrowsError(try store.sendChecked(.fail))
    XCTAssertEqual(store.state, [0])
    XCTAssertEqual(store.effectsInFlight, 0)

    let transactional = Store(initialState: [], reducer: reducer, transactional: true)
    transactional.send(.fail)
    XCTAssertEqual(transactional.state, [])
    XCTAssertEqual(transactional.warnings.count, 1)
  }

  /// A host's transaction, as the Lua layer gives one: what the store asked of it, in order.
  final class LoggingTransaction: StoreTransaction<[Int]> {
    var log: [String] = []
    override func begin() { log.append("begin") }
    override func end() { log.append("end") }
    override func rollBack(_ state: inout [Int]) {
      log.append("rollBack")
      state.removeLast()  // the host undoes its own writes: here, the one append of the send
    }
  }

  /// A store over a reduce function isolated to the main actor (what a host whose reducers live
  /// there gives it): it reduces on the main actor, every send is a transaction of the host's,
  /// and a failure is rolled back through it with the error thrown to `sendChecked`.
  func testMainActorReduceFunctionWithHostTransaction() async {
    enum Action { case fine, fail }
    let transaction = LoggingTransaction()
    var reduced: [Action] = []
    let reduce: @MainActor (inout [Int], Action) -> Effect<Action> = { state, action in
      MainActor.assertIsolated("the store calls its reduce function on the main actor")
      reduced.append(action)
      state.append(state.count)
      return action == .fail ? .failure(Failing()) : .none
    }
    let store = Store(
      initialState: [], reduceOnMainActor: reduce, dependencies: .fallback, transaction: transaction)
    try? store.sendChecked(.fine)
    XCTAssertEqual(store.state, [0])
    XCTAssertEqual(transaction.log, ["begin", "end"])

    XCTAssertThrowsError(try store.sendChecked(.fail)) { error in
      XCTAssertTrue((error as? ReducerFailure)?.error is Failing, "got \(error)")
    }
    XCTAssertEqual(store.state, [0])
    XCTAssertEqual(transaction.log, ["begin", "end", "begin", "rollBack"])

    store.send(.fine)
    XCTAssertEqual(store.state, [0, 1])
    XCTAssertEqual(reduced, [.fine, .fail, .fine])
  }

  func testNavigationTreeFromState() async {
    let game = Game()
    var state = Game.State(counter: .init(id: UUID(0), secret: 1))
    XCTAssertEqual(game.navigationTree(state).children.count, 0)
    state.destination = PresentationState(.resultList(.init(results: [])))
    let tree = game.navigationTree(state)
    XCTAssertEqual(tree.children.count, 1)
    XCTAssertEqual(tree.children[0].kind, .destination)
    XCTAssert(tree.children[0].state is Game.Destination.State)
  }

  /// `waitForEffects` is event-driven: it returns once the last effect has finished (after its actions
  /// were reduced), on the root store and on a scoped store, and a cancelled waiter stops waiting.
  func testWaitForEffects() async {
    enum Action { case start(Int), done, forever }
    let reducer = Reduce<Int, Action> { state, action in
      switch action {
      case let .start(n):
        return .merge((0..<n).map { i in
          .run { send in
            try await Task.sleep(for: .milliseconds(2 * i))
            await send(.done)
          }
        })
      case .done: state += 1; return .none
      case .forever: return .run { _ in try await Task.sleep(for: .seconds(60)) }
      }
    }
    let store = Store(initialState: 0, reducer: reducer)
    await store.waitForEffects()  // nothing in flight: returns at once
    store.send(.start(3))
    XCTAssertEqual(store.effectsInFlight, 3)
    await store.waitForEffects()
    XCTAssertEqual(store.state, 3)
    XCTAssertEqual(store.effectsInFlight, 0)

    let scoped = store.scope(state: { $0 }, action: { $0 })
    scoped.send(.start(2))
    await scoped.waitForEffects()
    XCTAssertEqual(store.state, 5)

    store.send(.forever)
    let waiter = Task { await store.waitForEffects() }
    await Task.megaYield()
    waiter.cancel()
    await waiter.value  // returns although the effect still runs
    XCTAssertEqual(store.effectsInFlight, 1)
    store.cancelAllEffects()
    await store.waitForEffects()
  }
}
