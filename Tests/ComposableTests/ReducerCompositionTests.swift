import Composable
import XCTest

@MainActor
final class ReducerCompositionTests: XCTestCase {
  func testBodyRunsInDeclarationOrder() async {
    struct Feature: Reducer {
      struct State: Equatable { var log: [String] = [] }
      enum Action { case go }
      var body: some Reducer<State, Action> {
        Reduce { state, _ in state.log.append("first"); return .none }
        Reduce { state, _ in state.log.append("second"); return .none }
        CombineReducers {
          Reduce { state, _ in state.log.append("third"); return .none }
        }
      }
    }
    let store = Store(initialState: Feature.State(), reducer: Feature())
    store.send(.go)
    XCTAssertEqual(store.state.log, ["first", "second", "third"])
  }

  struct Parent: Reducer {
    struct State: Equatable { var counter = Counter.State(); var log: [String] = [] }
    enum Action: Equatable { case counter(Counter.Action) }
    var body: some Reducer<State, Action> {
      Scope(state: \.counter, action: CaseLens(Action.counter) { if case let .counter(a) = $0 { a } else { nil } }) {
        Counter()
      }
      Reduce { state, _ in state.log.append("parent saw \(state.counter.count)"); return .none }
    }
  }

  func testScopeKeyPath() async {
    let store = Store(initialState: Parent.State(), reducer: Parent())
    store.send(.counter(.increment))
    XCTAssertEqual(store.state.counter.count, 1)
    XCTAssertEqual(store.state.log, ["parent saw 1"])
  }

  /// Shared state: the profile is derived from the counter state; the child can only change what the lens exposes.
  func testLensScopeCannotChangeWhatItsLensHides() async {
    struct AppState: Equatable { var count = 5; var maxCount = 9; var secret = "hidden" }
    struct Profile: Equatable { var count: Int; var maxCount: Int; var secret = "" }
    enum ProfileAction { case reset }
    let lens = StateLens<AppState, Profile>(
      get: { Profile(count: $0.count, maxCount: $0.maxCount) },
      set: { $0.count = $1.count; $0.maxCount = $1.maxCount })
    let reducer = Scope(state: lens, action: CaseLens<ProfileAction, ProfileAction>.identity) {
      Reduce<Profile, ProfileAction> { state, _ in
        state.count = 0
        state.maxCount = 0
        state.secret = "changed"  // not exposed by the lens: cannot reach AppState
        return .none
      }
    }
    let store = Store(initialState: AppState(), reducer: reducer)
    store.send(.reset)
    XCTAssertEqual(store.state, AppState(count: 0, maxCount: 0, secret: "hidden"))
  }

  func testScopeOverEnumCaseWarnsForOtherCase() async {
    enum State: Equatable { case counter(Counter.State), other }
    let reducer = Scope(
      stateCase: CaseLens(State.counter) { if case let .counter(s) = $0 { s } else { nil } },
      action: CaseLens<Counter.Action, Counter.Action>.identity
    ) { Counter() }
    let store = Store(initialState: State.counter(.init()), reducer: reducer)
    store.send(.increment)
    XCTAssertEqual(store.state, .counter(.init(count: 1)))
    let other = Store(initialState: State.other, reducer: reducer)
    other.send(.increment)
    XCTAssertEqual(other.state, .other)
    XCTAssertEqual(other.warnings.count, 1)
  }

  func testBindingActionSetsField() async {
    struct State: Equatable { var query = ""; var favoritesOnly = false; var searches = 0 }
    enum Action: BindableAction, Equatable {
      case binding(BindingAction<State>)
      var binding: BindingAction<State>? { if case let .binding(b) = self { b } else { nil } }
    }
    let reducer = CombineReducers {
      BindingReducer<State, Action>()
      Reduce<State, Action> { state, action in
        if case let .binding(b) = action, b.is(\.query) { state.searches += 1 }
        return .none
      }
    }
    let store = Store(initialState: State(), reducer: reducer)
    store.send(.binding(.set(\.query, "tca")))
    store.send(.binding(.set(\.favoritesOnly, true)))
    XCTAssertEqual(store.state, State(query: "tca", favoritesOnly: true, searches: 1))
    XCTAssertEqual(Action.binding(.set(\.query, "a")), .binding(.set(\.query, "a")))
    XCTAssertNotEqual(Action.binding(.set(\.query, "a")), .binding(.set(\.query, "b")))
  }

  func testDependencyModifierOverridesForScope() async {
    struct Feature: Reducer {
      struct State: Equatable { var id: UUID? }
      enum Action { case make }
      @Dependency(\.uuid) var uuid
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        state.id = uuid()
        return .none
      }
    }
    let store = Store(initialState: Feature.State(), reducer: Feature().dependency(\.uuid, .constant(UUID(7))))
    store.send(.make)
    XCTAssertEqual(store.state.id, UUID(7))
  }

  func testIdentifiedArray() async {
    struct Row: Identifiable, Equatable { var id: Int; var name: String }
    var rows: IdentifiedArrayOf<Row> = [Row(id: 1, name: "a"), Row(id: 2, name: "b")]
    rows[id: 2]?.name = "B"
    rows.append(Row(id: 3, name: "c"))
    rows.append(Row(id: 1, name: "ignored"))  // same id: not appended
    rows.updateOrAppend(Row(id: 1, name: "again"))  // same id: replaced in place
    XCTAssertEqual(rows.map(\.name), ["again", "B", "c"])
    rows.remove(atOffsets: [0])
    XCTAssertEqual(rows.ids, [2, 3])
    rows[id: 3] = nil
    XCTAssertEqual(rows.count, 1)
  }

  /// Scope's stored-offset fast path (nested stored key paths) and its key-path fallbacks (a computed
  /// property, a property with observers, a hop through a class) must all reach the same state.
  func testScopeKeyPathKinds() async {
    final class Box: Equatable {
      var counter = Counter.State()
      static func == (a: Box, b: Box) -> Bool { a.counter == b.counter }
    }
    struct Inner: Equatable { var pad: (Int8, Int16) = (1, 2); var counter = Counter.State() 
      static func == (a: Inner, b: Inner) -> Bool { a.counter == b.counter && a.pad == b.pad }
    }
    struct State: Equatable {
      var flag = true
      var inner = Inner()
      var stored = Counter.State()
      var observed = Counter.State() { didSet { observedWrites += 1 } }
      var observedWrites = 0
      var computed: Counter.State {
        get { Counter.State(count: stored.count * 10) }
        set { stored.count = newValue.count / 10 }
      }
      var box = Box()
    }
    XCTAssertNotNil(MemoryLayout<State>.offset(of: \State.inner.counter))
    XCTAssertNil(MemoryLayout<State>.offset(of: \State.computed))
    XCTAssertNil(MemoryLayout<State>.offset(of: \State.box.counter))
    enum Action { case nested(Counter.Action), computed(Counter.Action), observed(Counter.Action), boxed(Counter.Action) }
    func lens(_ embed: @escaping (Counter.Action) -> Action) -> CaseLens<Action, Counter.Action> {
      CaseLens(embed) { action in
        switch (action, embed(.increment)) {
        case let (.nested(a), .nested), let (.computed(a), .computed), let (.observed(a), .observed),
          let (.boxed(a), .boxed):
          return a
        default: return nil
        }
      }
    }
    let reducer = CombineReducers<State, Action, _> {
      Scope(state: \State.inner.counter, action: lens(Action.nested)) { Counter() }
      Scope(state: \State.computed, action: lens(Action.computed)) { Counter() }
      Scope(state: \State.observed, action: lens(Action.observed)) { Counter() }
      Scope(state: \State.box.counter, action: lens(Action.boxed)) { Counter() }
    }
    let store = Store(initialState: State(), reducer: reducer)
    store.send(.nested(.increment))
    store.send(.nested(.increment))
    XCTAssertEqual(store.state.inner.counter.count, 2)
    XCTAssertEqual(store.state.inner.pad.0, 1)
    XCTAssertEqual(store.state.inner.pad.1, 2)
    XCTAssertTrue(store.state.flag)
    store.send(.computed(.set(30)))
    XCTAssertEqual(store.state.stored.count, 3)
    store.send(.computed(.increment))  // 30 + 1 → 31 / 10 = 3
    XCTAssertEqual(store.state.stored.count, 3)
    store.send(.observed(.increment))
    XCTAssertEqual(store.state.observed.count, 1)
    XCTAssertEqual(store.state.observedWrites, 1, "the setter (and its observer) must run")
    store.send(.boxed(.increment))
    XCTAssertEqual(store.state.box.counter.count, 1)
  }

  /// The same offset fast path through ifLet and forEach lenses.
  func testIfLetAndForEachThroughStoredKeyPaths() async {
    struct Row: Identifiable, Equatable { var id: Int; var counter = Counter.State() }
    struct State: Equatable {
      var tag: UInt8 = 7
      var child: Counter.State? = Counter.State()
      var rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2)]
    }
    enum Action { case child(Counter.Action), row(IdentifiedAction<Int, Counter.Action>) }
    let reducer = EmptyReducer<State, Action>()
      .ifLet(\.child, action: CaseLens(Action.child) { if case let .child(a) = $0 { a } else { nil } }) { Counter() }
      .forEach(\.rows, action: CaseLens(Action.row) { if case let .row(a) = $0 { a } else { nil } }) {
        Scope(state: \Row.counter, action: CaseLens<Counter.Action, Counter.Action>.identity) { Counter() }
      }
    let store = Store(initialState: State(), reducer: reducer)
    store.send(.child(.increment))
    store.send(.row(.element(id: 2, action: .set(5))))
    XCTAssertEqual(store.state.child?.count, 1)
    XCTAssertEqual(store.state.rows[id: 2]?.counter.count, 5)
    XCTAssertEqual(store.state.rows[id: 1]?.counter.count, 0)
    XCTAssertEqual(store.state.tag, 7)
  }
}
