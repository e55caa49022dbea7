import Composable
import Foundation
import XCTest

@testable import Relua

/// A Lua feature inside a Swift one: the guessing game's Counter (Scripts/Features/Counter.lua)
/// under a Swift scoreboard that watches its actions, tested with Composable's TestStore.
@MainActor
final class MixedFeatureTests: XCTestCase {
  struct Scoreboard: Reducer {
    struct State: Equatable {
      var best: Int64 = 0
      var moves = 0
      var counter: Value
    }
    enum Action { case counter(FeatureAction), reset }
    static let counterCase = CaseLens<Action, FeatureAction>(Action.counter) {
      if case .counter(let action) = $0 { action } else { nil }
    }

    let counter: ReluaFeatureReducer

    var body: some Reducer<State, Action> {
      Scope(state: \.counter, action: Self.counterCase) { counter }
      Reduce { state, action in
        switch action {
        case .counter:
          // After the child, as in TCA: the Lua reducer has run.
          state.moves += 1
          if let count = state.counter[key: "count"].integerValue, count > state.best { state.best = count }
          return .none
        case .reset:
          state.best = 0
          state.moves = 0
          return .none
        }
      }
    }
  }

  private func counter() throws -> (ReluaRuntime, FeatureDefinition) {
    let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts").path
    let relua = try ReluaRuntime(scriptRoots: [scripts])
    return (relua, try relua.loadFeature(file: scripts + "/Features/Counter.lua"))
  }

  func testTheLuaCounterUnderASwiftScoreboard() async throws {
    let (relua, counter) = try counter()
    let initial = try relua.initialState(of: counter) {
      $0.uuid = .incrementing
      $0.random = .seeded(7)
    }
    XCTAssertEqual(initial[key: "count"], .integer(0))
    XCTAssertEqual(initial[key: "id"], .string("00000000-0000-0000-0000-000000000000"))
    let store = TestStore(initialState: Scoreboard.State(counter: initial), reducer: Scoreboard(counter: relua.reducer(for: counter))) {
      $0.uuid = .incrementing
      $0.random = .seeded(7)
    }
    await store.send(.counter(try relua.action("increment", of: counter))) {
      $0.counter[key: "count"] = .integer(1)
      $0.moves = 1
      $0.best = 1
    }
    await store.send(.counter(try relua.action("setCount", .integer(40), of: counter))) {
      $0.counter[key: "count"] = .integer(40)
      $0.moves = 2
      $0.best = 40
    }
    await store.send(.counter(try relua.action("decrement", of: counter))) {
      $0.counter[key: "count"] = .integer(39)
      $0.moves = 3
    }
    await store.send(.reset) {
      $0.best = 0
      $0.moves = 0
    }
    // The child's actions are checked as typed ones are.
    XCTAssertThrowsError(try relua.action("setCount", .string("forty"), of: counter)) { error in
      XCTAssertTrue("\(error)".contains("expected integer"), "\(error)")
    }
    XCTAssertThrowsError(try relua.action("jump", of: counter))
  }

  func testALuaReducerThatRaisesInsideASwiftStoreLeavesTheStateAsItWas() async throws {
    let relua = try ReluaRuntime()
    let feature = try relua.loadFeature(source: """
      local relua = require "relua"
      return relua.feature "Fragile" { state = { n = 0 }, actions = { bump = {}, crash = {} },
        reduce = relua.on { bump = function(s) s.n = s.n + 1 end, crash = function(s) s.n = 99; error("boom") end } }
      """, name: "Fragile.lua")
    let store = Store(
      initialState: Scoreboard.State(counter: try relua.initialState(of: feature)),
      reducer: Scoreboard(counter: relua.reducer(for: feature)), transactional: true)
    store.send(.counter(try relua.action("bump", of: feature)))
    store.send(.counter(try relua.action("crash", of: feature)))
    XCTAssertEqual(store.state.counter[key: "n"], .integer(1))
    XCTAssertEqual(store.state.moves, 1)
    XCTAssertTrue(store.warnings.last?.message.contains("Fragile.lua:3") == true, "\(store.warnings)")
  }
}
