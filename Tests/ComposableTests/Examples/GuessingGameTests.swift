import Composable
import XCTest

@MainActor
final class GuessingGameTests: XCTestCase {
  func makeStore() -> TestStore<Game.State, Game.Action> {
    TestStore(initialState: Game.State(counter: .init(id: UUID(100), secret: 3)), reducer: Game()) {
      $0.uuid = .incrementing
      $0.random = .sequence([10, -5, 42])
    }
  }

  func testNextRecordsExactlyOneResultPerRound() async {
    let store = makeStore()
    await store.send(.counter(.increment)) { $0.counter.count = 1 }
    await store.send(.counter(.playNext)) {
      $0.results = [GameResult(.init(id: UUID(100), secret: 3, count: 1))]
      $0.counter = .init(id: UUID(0), secret: 10, count: 0)
    }
    await store.send(.counter(.setCount(10))) { $0.counter.count = 10 }
    XCTAssertEqual(store.state.counter.feedback, "correct")
    await store.send(.counter(.playNext)) {
      $0.results.append(GameResult(.init(id: UUID(0), secret: 10, count: 10)))
      $0.counter = .init(id: UUID(1), secret: -5, count: 0)
    }
    XCTAssertEqual(store.state.results.count, 2)
    XCTAssertEqual(store.state.results.map(\.correct), [false, true])
  }

  func testResultsPresentedAsCopyAndWrittenBackOnDismiss() async {
    let store = makeStore()
    await store.send(.counter(.playNext)) {
      $0.results = [GameResult(.init(id: UUID(100), secret: 3, count: 0))]
      $0.counter = .init(id: UUID(0), secret: 10)
    }
    await store.send(.counter(.playNext)) {
      $0.results.append(GameResult(.init(id: UUID(0), secret: 10, count: 0)))
      $0.counter = .init(id: UUID(1), secret: -5)
    }
    await store.send(.showResults) {
      $0.destination = PresentationState(.resultList(.init(results: $0.results)))
    }
    XCTAssertEqual(Game().navigationTree(store.state).children.map(\.kind), [.destination])
    await store.send(.destination(.presented(.resultList(.remove(offsets: [1]))))) {
      $0.destination = PresentationState(.resultList(.init(results: [GameResult(.init(id: UUID(0), secret: 10, count: 0))])))
    }
    XCTAssertEqual(store.state.results.count, 2, "the game keeps its own results until dismissal")
    await store.send(.destination(.presented(.resultList(.doneTapped))))
    await store.receive(.destination(.dismiss)) {
      $0.destination = nil
      $0.results = [GameResult(.init(id: UUID(0), secret: 10, count: 0))]
    }
    XCTAssertEqual(Game().navigationTree(store.state).children.count, 0)
  }

  func testDeepLinkOpensOnResultList() async {
    let state = Game.State(
      counter: .init(id: UUID(5), secret: 0),
      results: [GameResult(.init(id: UUID(4), secret: 1, count: 1))],
      destination: PresentationState(.resultList(.init(results: []))))
    let tree = Game().navigationTree(state)
    XCTAssertEqual(tree.path.count, 2)
    XCTAssertEqual(tree.path.last?.kind, .destination)
  }
}
