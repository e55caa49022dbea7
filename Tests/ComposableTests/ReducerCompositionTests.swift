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
}
