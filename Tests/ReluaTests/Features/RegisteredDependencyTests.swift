import Lua
import XCTest

@testable import Relua
@testable import ReluaTesting

/// A dependency a Swift program registers (`ReluaDependency`), as Lua features and tests see it:
/// exact values both ways, awaited members, streams, values, failures as `nil, err`, argument
/// errors at the calling line, test overrides and the unimplemented failure.
@MainActor
final class RegisteredDependencyTests: XCTestCase {
  /// `deps.inventory`: a shop's stock, answered by Swift.
  static let inventory = ReluaDependency("inventory", live: .members([
    // Synchronous: what the arguments were, exactly (integers stay integers, floats floats).
    "echo": .function { arguments in
      [.string(arguments.map(\.kindName).joined(separator: ",")), .array(arguments)]
    },
    // Awaited: a record with a missing field, or a failure.
    "lookUp": .async { arguments in
      guard case .string(let item)? = arguments.first else {
        throw ReluaDependency.ArgumentError(position: 1, "deps.inventory.lookUp(item): an item name (a string)")
      }
      await Task.yield()
      switch item {
      case "apple": return [["item": "apple", "count": 3, "price": 0.5]]
      case "pear": return [["item": "pear", "count": 0]]  // no price: the field is absent
      default: throw ReluaDependency.Failure(kind: "notFound", message: "No \(item) in stock.", fields: [("item", .string(item))])
      }
    },
    // A stream: the loop ends with it.
    "deliveries": .stream { _ in
      AsyncThrowingStream { continuation in
        for value: Value in [1, 2.5, "three"] { continuation.yield(value) }
        continuation.finish()
      }
    },
    "currency": .value("EUR"),
  ]))

  func testARegisteredDependencyFromLuaLiveOverriddenUnimplementedAndFailing() async throws {
    ReluaHost.registerForEveryState(Self.inventory)
    let directory = try LuaTestDirectory()
    try directory.write("inventory_test.lua", Self.script)
    let summary = await directory.inside { await LuaTestRunner(configuration: LuaTestConfiguration()).run(paths: ["."]) }
    let failures = summary.results.compactMap { result in result.failure.map { "\(result.name): \($0.message)" } }
    XCTAssertEqual(failures, [], failures.joined(separator: "\n\n"))
    XCTAssertEqual(summary.passed, 6, summary.closingLine)
  }

  static let script = #"""
    local relua = require "relua"
    local Effect = relua.Effect

    local Shop = relua.feature "Shop" {
      state = { log = {} },
      actions = { check = "string", checked = "table", failed = "table", receive = {}, got = "any", echo = {} },
      reduce = relua.on {
        check = function(_, item, deps)
          return Effect.run(function(send)
            local found, err = deps.inventory.lookUp(item)
            if found then send("checked", found) else send("failed", err) end
          end)
        end,
        checked = function(s, found) s.log[#s.log + 1] = found end,
        failed = function(s, err) s.log[#s.log + 1] = err end,
        receive = function(_, _, deps)
          return Effect.run(function(send)
            for delivery in deps.inventory.deliveries() do send("got", delivery) end
          end)
        end,
        got = function(s, value) s.log[#s.log + 1] = value end,
        echo = function(s, _, deps)
          local kinds, values = deps.inventory.echo(1, 1.0, "x", true, { a = 1 })
          s.log[#s.log + 1] = kinds
          s.log[#s.log + 1] = math.type(values[1]) .. "," .. math.type(values[2])
        end,
      },
    }

    test("live: exact values, a missing field absent, a value member", function()
      local store = relua.Store(Shop)
      -- One after the other: two live effects awaiting Swift at once finish in either order.
      store:send("check", "apple")
      store:wait()
      store:send("check", "pear")
      store:wait()
      local log = store:state().log
      expect(log[1].count).to_be(3)
      expect(math.type(log[1].count)).to_be("integer")
      expect(math.type(log[1].price)).to_be("float")
      expect(log[2].price).to_be_nil()
      store:send("echo")
      expect(store:state().log[3]).to_be("integer,float,string,boolean,record")
      expect(store:state().log[4]).to_be("integer,float")
      expect(relua.deps.inventory.currency).to_be("EUR")
    end)

    test("a failing call answers nil, err with the message for the user", function()
      local store = relua.Store(Shop)
      store:send("check", "kiwi")
      store:wait()
      local err = store:state().log[1]
      expect(err.kind).to_be("notFound")
      expect(err.message).to_be("No kiwi in stock.")
      expect(err.item).to_be("kiwi")
    end)

    test("a bad argument raises at the line that called it", function()
      local Probe = relua.feature "Probe" {
        state = {}, actions = { go = {} },
        reduce = relua.on { go = function(_, _, deps)
          return Effect.run(function() deps.inventory.lookUp(42) end)
        end },
      }
      local store = relua.Store(Probe)
      store:send("go")
      store:wait()
      local warning = store:warnings()[1] or ""
      expect(warning).to_contain("inventory_test.lua:")
      expect(warning).to_contain("bad argument #1 to 'deps.inventory.lookUp' (deps.inventory.lookUp(item): an item name (a string))")
    end)

    test("a stream is a loop in an effect", function()
      local store = relua.Store(Shop)
      store:send("receive")
      store:wait()
      local log = store:state().log
      expect(#log).to_be(3)
      expect(math.type(log[1])).to_be("integer")
      expect(log[2]).to_be(2.5)
      expect(log[3]).to_be("three")
    end)

    test("a test overrides a member from Lua", function()
      local store = relua.TestStore(Shop, { deps = { inventory = { lookUp = function(item) return { item = item, count = 9 } end } } })
      store:send("check", "fig")
      store:receive("checked", function(s) s.log = { { item = "fig", count = 9 } } end)
    end)

    test("a test that reaches it without giving it fails, naming it", function()
      local store = relua.TestStore(Shop)
      expect(function() store:send("check", "apple") end).to_error("Unimplemented dependency: inventory")
      store:exhaustive(false)
    end)
    """#
}
