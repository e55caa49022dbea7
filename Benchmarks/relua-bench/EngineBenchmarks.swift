import Composable

// The engine's benchmarks: a typed Swift counter through the store, the same reducer called directly,
// element actions in forEach collections of two sizes, nested scopes, and an effect round trip.

struct BenchCounter: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Equatable { case increment }
  @inline(never)
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count &+= 1
    return .none
  }
}

struct BenchRow: Identifiable, Equatable {
  var id: Int
  var counter = BenchCounter.State()
}

/// Composed once and stored: a `body` is rebuilt on every action (key paths, closures), which costs
/// microseconds; hot features keep their composed reducer in a stored property.
struct BenchList: Reducer {
  struct State: Equatable { var rows: IdentifiedArrayOf<BenchRow> }
  enum Action: Equatable { case row(IdentifiedAction<Int, BenchCounter.Action>) }
  static let rowAction = CaseLens(Action.row) { if case let .row(a) = $0 { a } else { nil } }
  let composed = Reduce(Self.compose())
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    composed.reduce(into: &state, action: action)
  }
  static func compose() -> some Reducer<State, Action> {
    EmptyReducer()
      .forEach(\.rows, action: Self.rowAction) {
        Scope(state: \BenchRow.counter, action: CaseLens<BenchCounter.Action, BenchCounter.Action>.identity) {
          BenchCounter()
        }
      }
  }
}

/// Depth-n state: a struct with a `child` one level down (generic nesting so every level is typed).
struct Level<Inner: Equatable>: Equatable {
  var inner: Inner
}

enum LevelAction<InnerAction> {
  case child(InnerAction)
}

struct LevelReducer<Inner: Reducer>: Reducer where Inner.State: Equatable {
  let scope: Scope<Level<Inner.State>, LevelAction<Inner.Action>, Inner>
  init(inner: Inner) {
    scope = Scope(
      state: \Level<Inner.State>.inner,
      action: CaseLens(LevelAction.child) { if case let .child(a) = $0 { a } else { nil } }
    ) { inner }
  }
  func reduce(into state: inout Level<Inner.State>, action: LevelAction<Inner.Action>) -> Effect<LevelAction<Inner.Action>> {
    scope.reduce(into: &state, action: action)
  }
}

@MainActor
func registerEngineBenchmarks(_ suite: BenchmarkSuite) {
  suite.add("swift.send", iterations: 1_000_000) {
    let store = Store(initialState: BenchCounter.State(), reducer: BenchCounter())
    return { n in
      for _ in 0..<n { store.send(.increment) }
      blackHole(store.state)
    }
  }

  suite.add("swift.direct", iterations: 1_000_000) {
    var state = BenchCounter.State()
    let reducer = BenchCounter()
    return { n in
      for _ in 0..<n { blackHole(reducer.reduce(into: &state, action: .increment)) }
      blackHole(state)
    }
  }

  for size in [100, 100_000] {
    suite.add("swift.forEach.\(size)", iterations: 200_000) {
      let rows = IdentifiedArrayOf<BenchRow>(uniqueElements: (0..<size).map { BenchRow(id: $0) })
      let store = Store(initialState: BenchList.State(rows: rows), reducer: BenchList())
      let id = size / 2
      return { n in
        for _ in 0..<n { store.send(.row(.element(id: id, action: .increment))) }
        blackHole(store.state.rows[id: id])
      }
    }
  }

  suite.add("swift.depth.1", iterations: 500_000) {
    let store = Store(initialState: Level(inner: BenchCounter.State()), reducer: LevelReducer(inner: BenchCounter()))
    return { n in
      for _ in 0..<n { store.send(.child(.increment)) }
      blackHole(store.state)
    }
  }

  suite.add("swift.depth.10", iterations: 500_000) {
    let reducer = LevelReducer(inner: LevelReducer(inner: LevelReducer(inner: LevelReducer(inner: LevelReducer(
      inner: LevelReducer(inner: LevelReducer(inner: LevelReducer(inner: LevelReducer(inner: LevelReducer(
        inner: BenchCounter()))))))))))
    let state = Level(inner: Level(inner: Level(inner: Level(inner: Level(inner: Level(inner: Level(inner: Level(
      inner: Level(inner: Level(inner: BenchCounter.State()))))))))))
    let store = Store(initialState: state, reducer: reducer)
    func nest<A>(_ action: A) -> LevelAction<A> { .child(action) }
    let action = nest(nest(nest(nest(nest(nest(nest(nest(nest(nest(BenchCounter.Action.increment))))))))))
    return { n in
      for _ in 0..<n { store.send(action) }
      blackHole(store.state)
    }
  }
}

/// The effect round trip is async: measured separately with its own loop (goal ≤ 25 ×
/// `baseline.task.hop`; it was ≤ 10 µs).
@MainActor
func measureEffectRoundTrip(iterations: Int) async -> Double {
  enum Action { case start, done }
  let store = Store(initialState: 0, reducer: Reduce<Int, Action> { state, action in
    switch action {
    case .start: return .run { send in await send(.done) }
    case .done: state += 1; return .none
    }
  })
  let clock = ContinuousClock()
  let start = clock.now
  for _ in 0..<iterations {
    store.send(.start)
    await store.waitForEffects()
  }
  let elapsed = start.duration(to: clock.now)
  let (seconds, attoseconds) = elapsed.components
  return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(iterations)
}
