import Composable
import XCTest

@testable import Relua
@testable import ReluaTesting

/// A feature written in Swift inside a Lua one: a typed Composable Counter registered as
/// `relua.swiftFeature "Counter"` and composed by a Lua Game, tested with the Lua TestStore —
/// state visible and writable from Lua, actions sent by path and checked, effects coming back.
@MainActor
final class SwiftFeatureInLuaTests: XCTestCase {
  struct Counter: Reducer {
    struct State: Codable, Equatable {
      var count = 0
      var hint = "higher"
    }
    enum Action { case increment, decrement, setCount(Int), askHint, hinted(String) }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .increment: state.count += 1
      case .decrement: state.count -= 1
      case .setCount(let count): state.count = count
      case .askHint:
        let count = state.count
        return .run { send in await send(.hinted(count < 10 ? "higher" : "lower")) }
      case .hinted(let hint): state.hint = hint
      }
      return .none
    }

    static func feature() throws -> ReluaSwiftFeature {
      try ReluaSwiftFeature.typed(
        "Counter", reducer: Counter(), initialState: State(),
        actions: ["increment": nil, "decrement": nil, "setCount": "integer", "askHint": nil, "hinted": "string"],
        action: { action in
          switch (action.name, action.payload) {
          case ("increment", _): return .increment
          case ("decrement", _): return .decrement
          case ("setCount", .integer(let count)): return .setCount(Int(count))
          case ("askHint", _): return .askHint
          case ("hinted", .string(let hint)): return .hinted(hint)
          default: return nil
          }
        },
        name: { action in
          switch action {
          case .increment: return FeatureAction("increment")
          case .decrement: return FeatureAction("decrement")
          case .setCount(let count): return FeatureAction("setCount", .integer(Int64(count)))
          case .askHint: return FeatureAction("askHint")
          case .hinted(let hint): return FeatureAction("hinted", .string(hint))
          }
        })
    }
  }

  /// A Swift counter whose `best` is shared: each increment raises it past the count.
  struct SharingCounter: Reducer {
    struct State: Codable, Equatable {
      var count = 0
      var best = 0
    }
    enum Action { case increment }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      state.best += 1
      return .none
    }

    static func feature() throws -> ReluaSwiftFeature {
      var feature = try ReluaSwiftFeature.typed(
        "SharingCounter", reducer: SharingCounter(), initialState: State(), actions: ["increment": nil],
        action: { _ in .increment }, name: { _ in FeatureAction("increment") })
      feature.shared = ["best": .inMemory("best")]
      return feature
    }
  }

  func testASwiftCounterUnderALuaGame() async throws {
    ReluaHost.registerForEveryState(try Counter.feature())
    ReluaHost.registerForEveryState(try SharingCounter.feature())
    let directory = try LuaTestDirectory()
    try directory.write("game_test.lua", #"""
      local relua = require "relua"
      local Counter = relua.swiftFeature "Counter"

      local Game = relua.feature "Game" {
        state = { counter = Counter:initial(), played = 0 },
        actions = { finish = {} },
        compose = { relua.scope("counter", Counter) },
        reduce = relua.on {
          finish = function(s) s.played = s.played + 1; s.counter.count = 0 end,
        },
      }

      test("the Swift counter's state and actions through the Lua game", function()
        local store = relua.TestStore(Game)
        store:send("counter.increment", function(s) s.counter.count = 1 end)
        store:send("counter.setCount", 42, function(s) s.counter.count = 42 end)
        store:send("counter.askHint")
        store:receive("counter.hinted", "lower", function(s) s.counter.hint = "lower" end)
        store:send("finish", function(s) s.played = 1; s.counter.count = 0 end)
      end)

      test("its actions are checked as a Lua feature's are", function()
        local store = relua.TestStore(Game)
        expect(function() store:send("counter.setCount", "x") end).to_error("expected integer")
        expect(function() store:send("counter.jump") end).to_error("jump")
      end)

      test("a Swift feature can be a store of its own", function()
        local store = relua.Store(Counter)
        store:send("increment")
        store:send("increment")
        expect(store:state().count).to_be(2)
        expect(relua.swiftFeature "Counter").to_be(Counter)  -- one feature per name
      end)

      test("a Swift feature shares a value with the Lua features holding the same key", function()
        local Best = relua.feature "Best" {
          state = { best = 0, counter = (relua.swiftFeature "SharingCounter"):initial() },
          shared = { best = relua.inMemory("best") },
          actions = { record = "integer" },
          compose = { relua.scope("counter", relua.swiftFeature "SharingCounter") },
          reduce = relua.on { record = function(s, n) s.best = n end },
        }
        local store = relua.TestStore(Best)
        store:send("record", 7, function(s) s.best = 7 end)
        expect(store:state("counter.best")).to_be(7)
        store:send("counter.increment", function(s) s.counter.count = 1; s.best = 8 end)
      end)

      test("an unregistered name says which are", function()
        expect(function() relua.swiftFeature "Timer" end).to_error("no Swift feature 'Timer' is registered (registered: Counter")
      end)
      """#)
    let summary = await directory.inside { await LuaTestRunner(configuration: LuaTestConfiguration()).run(paths: ["."]) }
    let failures = summary.results.compactMap { result in result.failure.map { "\(result.name): \($0.message)" } }
    XCTAssertEqual(failures, [], failures.joined(separator: "\n\n"))
    XCTAssertEqual(summary.passed, 5, summary.closingLine)
  }
}
