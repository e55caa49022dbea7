import Composable
import Foundation

// The guessing game (Scripts/Features/GuessingGame.lua), as a typed Swift feature.

struct GuessCounter: Reducer {
  struct State: Equatable, Identifiable {
    var id: UUID
    var secret: Int
    var count = 0

    var feedback: String { count < secret ? "higher" : count > secret ? "lower" : "correct" }
  }

  enum Action: Equatable { case increment, decrement, setCount(Int), playNext }

  @Dependency(\.uuid) var uuid
  @Dependency(\.random) var random

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    case .decrement: state.count -= 1
    case let .setCount(n): state.count = n
    case .playNext:
      // A new id per round: without it the identified results would keep only one entry.
      state.id = uuid()
      state.secret = random(in: -100...100)
      state.count = 0
    }
    return .none
  }
}

struct GameResult: Equatable, Identifiable {
  var id: UUID
  var secret: Int
  var count: Int
  var correct: Bool { secret == count }

  init(_ counter: GuessCounter.State) {
    self.id = counter.id
    self.secret = counter.secret
    self.count = counter.count
  }
}

struct ResultList: Reducer {
  struct State: Equatable { var results: IdentifiedArrayOf<GameResult> }
  enum Action: Equatable {
    /// Removes the rows at these 1-based positions.
    case remove(offsets: [Int])
    case doneTapped
  }
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .remove(offsets):
      state.results.remove(atOffsets: offsets.map { $0 - 1 })
      return .none
    case .doneTapped:
      let dismiss = self.dismiss
      return .run { _ in await dismiss() }
    }
  }
}

struct Game: Reducer {
  struct State: Equatable {
    var counter: GuessCounter.State
    var results: IdentifiedArrayOf<GameResult> = []
    var destination: PresentationState<Destination.State> = nil
  }

  enum Action: Equatable {
    case counter(GuessCounter.Action)
    case showResults
    case destination(PresentationAction<Destination.Action>)
  }

  struct Destination: Reducer {
    enum State: Equatable { case resultList(ResultList.State) }
    enum Action: Equatable { case resultList(ResultList.Action) }
    var body: some Reducer<State, Action> {
      Scope(
        stateCase: CaseLens(State.resultList) { if case let .resultList(s) = $0 { s } else { nil } },
        action: CaseLens(Action.resultList) { if case let .resultList(a) = $0 { a } else { nil } }
      ) { ResultList() }
    }
  }

  static let counterAction = CaseLens(Action.counter) { if case let .counter(a) = $0 { a } else { nil } }
  static let destinationAction = CaseLens(Action.destination) {
    if case let .destination(a) = $0 { a } else { nil }
  }

  var body: some Reducer<State, Action> {
    // Records the round before the counter starts the next one (declaration order).
    Reduce { state, action in
      switch action {
      case .counter(.playNext):
        state.results.append(GameResult(state.counter))
      case .showResults:
        state.destination = PresentationState(.resultList(ResultList.State(results: state.results)))
      case .destination(.dismiss):
        // The parent still sees the child here: write the edited copy back.
        if case let .resultList(list)? = state.destination.wrappedValue { state.results = list.results }
      case .counter, .destination:
        break
      }
      return .none
    }
    Scope(state: \.counter, action: Self.counterAction) { GuessCounter() }
      .ifLet(\.destination, action: Self.destinationAction) { Destination() }
  }
}
