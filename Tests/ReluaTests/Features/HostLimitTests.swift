import Composable
import Lua
import XCTest

@testable import Relua

/// The limits hold for all work a script causes: the state relua holds for it counts against the
/// memory limit, and a shared instruction budget covers the effects it starts.
@MainActor
final class HostLimitTests: XCTestCase {
  private func makeStore(_ source: String, options: LuaOptions) throws -> (LuaState, ReluaHost, LuaStoreObject) {
    let lua = try LuaState(options: options)
    let host = try ReluaHost.install(in: lua)
    let feature = try lua.execute(source, name: "=limits.lua")[0]
    return (lua, host, try LuaStoreObject(host: host, feature: host.feature(feature, what: "test"), dependencies: .init()))
  }

  private let hoarder = """
    local relua = require "relua"
    return relua.feature "Hoarder" {
      state = { items = { "seed" }, n = 0 },
      actions = { add = "string", fan = "table", take = "any", inc = {} },
      reduce = relua.on {
        add = function(s, text) s.items[#s.items + 1] = text end,
        fan = function(s, t)
          local sends = {}
          for i = 1, 2000 do sends[i] = relua.Effect.send("take", t) end
          return relua.Effect.merge(sends)
        end,
        take = function() end,
        inc = function(s) s.n = s.n + 1 end,
      },
    }
    """

  /// Each `add` keeps a 100 KB string in the state (Swift memory, not Lua's): past the limit the
  /// send fails with the memory error, undone, and the store goes on.
  func testStateGrowthCountsAgainstTheMemoryLimit() async throws {
    let (lua, host, store) = try makeStore(hoarder, options: LuaOptions(memoryLimit: 8 << 20))
    let text = Value.string(String(repeating: "x", count: 100_000))
    var added = 0
    var failure: (any Error)?
    for _ in 0..<200 {
      do {
        try store.send("add", payload: text)
        added += 1
      } catch {
        failure = error
        break
      }
    }
    XCTAssertTrue((40...85).contains(added), "added \(added) strings of 100 KB under an 8 MB limit")
    let message = "\(failure.map { "\($0)" } ?? "no failure")"
    XCTAssertTrue(message.contains("memory limit of 8388608 bytes exceeded: relua would hold"), message)
    XCTAssertTrue(message.contains("limits.lua:"), message)
    XCTAssertEqual(store.store.state[key: "items"].arrayValue?.count, added + 1, "the failed send was undone")
    XCTAssertLessThanOrEqual(lua.memoryUsed + lua.externalMemory, 8 << 20)
    try store.send("inc")
    XCTAssertEqual(store.store.state[key: "n"], .integer(1))
    XCTAssertGreaterThan(host.stateMemory.charged, added * 100_000)
  }

  /// A merge of 2,000 sends of one 10,000-element table: each send holds a copy until reduced.
  func testPayloadsOfFollowUpActionsCountAgainstTheMemoryLimit() async throws {
    let (lua, _, store) = try makeStore(hoarder, options: LuaOptions(memoryLimit: 16 << 20))
    let table = Value.array((0..<10_000).map { .integer(Int64($0)) })
    XCTAssertThrowsError(try store.send("fan", payload: table)) { error in
      XCTAssertTrue("\(error)".contains("memory limit of 16777216 bytes exceeded"), "\(error)")
    }
    XCTAssertEqual(store.store.state[key: "n"], .integer(0))
    try store.send("inc")
    XCTAssertEqual(store.store.state[key: "n"], .integer(1))
    XCTAssertLessThanOrEqual(lua.memoryUsed, 16 << 20)
  }

  /// Values kept by shares count too, whether a store holds them or not: a script that writes a
  /// megabyte into a new `inMemory` key again and again (no store, no state) meets the limit.
  func testSharedValuesCountAgainstTheMemoryLimit() async throws {
    let lua = try LuaState(options: LuaOptions(memoryLimit: 8 << 20))
    let host = try ReluaHost.install(in: lua)
    let kept = try lua.execute("""
      local relua = require "relua"
      local big = string.rep("x", 1000000)
      local kept = 0
      local ok, message = pcall(function()
        for i = 1, 100 do relua.inMemory("k" .. i):set(big .. i); kept = i end
      end)
      return kept, tostring(message)
      """, name: "=limits.lua")
    let count = Int(try XCTUnwrap(kept[0].integerValue))
    XCTAssertTrue((3...9).contains(count), "kept \(count) shares of 1 MB under an 8 MB limit")
    let message = kept[1].stringValue ?? "no failure"
    XCTAssertTrue(message.contains("memory limit of 8388608 bytes exceeded"), message)
    XCTAssertTrue(message.contains("limits.lua:"), message)
    XCTAssertGreaterThan(host.stateMemory.charged, count * 1_000_000)
  }

  /// Without a limit nothing is counted (no measuring cost).
  func testNoLimitNoCharge() async throws {
    let (lua, host, store) = try makeStore(hoarder, options: LuaOptions())
    try store.send("add", payload: .string(String(repeating: "y", count: 100_000)))
    XCTAssertEqual(host.stateMemory.charged, 0)
    XCTAssertEqual(lua.externalMemory, 0)
  }

  /// A shared budget: effects that start effects without end exhaust it, where a budget per call
  /// gave each effect step a fresh one (the chain ran until memory ran out).
  func testASharedInstructionBudgetCoversEffects() async throws {
    let (lua, _, store) = try makeStore("""
      local relua = require "relua"
      return relua.feature "Chain" {
        state = { n = 0 },
        actions = { again = {} },
        reduce = relua.on {
          again = function(s)
            s.n = s.n + 1
            return relua.Effect.run(function(send) send("again") end)
          end,
        },
      }
      """, options: LuaOptions(instructionLimit: 2_000_000, sharesInstructionBudget: true))
    try store.send("again")
    let finished = await store.store.waitForEffects(timeout: .seconds(20))
    XCTAssertTrue(finished, "the chain of effects stopped")
    guard case .integer(let steps) = store.store.state[key: "n"] else { return XCTFail("no count") }
    // Each step is two entries from the host, each charged at least 1,000 instructions.
    XCTAssertLessThanOrEqual(steps, 1_001)
    XCTAssertGreaterThan(steps, 100)
    XCTAssertTrue(store.store.warnings.contains { $0.message.contains("instruction budget exhausted") },
      "\(store.store.warnings.map(\.message).suffix(2))")
    lua.resetInstructionBudget()
    XCTAssertNoThrow(try lua.execute("local x = 0 for i = 1, 1000 do x = x + i end"))
  }
}
