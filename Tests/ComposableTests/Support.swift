import Composable
import XCTest

/// Collects TestStore failures instead of failing the test, to assert on their wording.
@MainActor
final class FailureCollector {
  var messages: [String] = []
  var reporter: ClosureTestFailureReporter {
    ClosureTestFailureReporter { [unowned self] message, _ in self.messages.append(message) }
  }
}

/// A small counter feature used by several tests.
struct Counter: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Equatable { case increment, decrement, set(Int) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    case .decrement: state.count -= 1
    case let .set(n): state.count = n
    }
    return .none
  }
}

/// A feature with a timer effect (ticks every second on the clock dependency).
struct Timer: Reducer {
  struct State: Equatable, Identifiable { var id = 0; var ticks = 0 }
  enum Action: Equatable { case start, tick }
  @Dependency(\.clock) var clock
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      let clock = self.clock
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
    case .tick:
      state.ticks += 1
      return .none
    }
  }
}
