import Lua
import XCTest

@testable import Relua
@testable import ReluaTesting

/// The feature host from Swift: action paths, payload types, and the checks a test gets for free.
@MainActor
final class FeatureHostTests: XCTestCase {
  func testActionPathsParse() async throws {
    XCTAssertEqual(try ActionResolver.parse("increment"), [.name("increment")])
    XCTAssertEqual(try ActionResolver.parse("counter.setCount"), [.name("counter"), .name("setCount")])
    XCTAssertEqual(try ActionResolver.parse("rows[id=42].onAppear"), [.name("rows"), .id(.integer(42)), .name("onAppear")])
    XCTAssertEqual(try ActionResolver.parse(#"rows[id="a.b"].x"#), [.name("rows"), .id(.string("a.b")), .name("x")])
    XCTAssertEqual(try ActionResolver.parse("path[id=0].detail.toggle"), [.name("path"), .id(.integer(0)), .name("detail"), .name("toggle")])
    XCTAssertEqual(try ActionResolver.parse("rows[ id = math.mininteger ].x"), [.name("rows"), .id(.integer(.min)), .name("x")])
    XCTAssertThrowsError(try ActionResolver.parse("counter.")) { error in
      XCTAssertEqual("\(error)", "cannot read the action 'counter.': it ends with '.'")
    }
    XCTAssertThrowsError(try ActionResolver.parse("rows[id=abc].x")) { error in
      XCTAssertEqual("\(error)", #"cannot read the action 'rows[id=abc].x': 'abc' is not a Lua literal (quote strings: [id="abc"])"#)
    }
    // `[n]` is the n-th element: an action names elements by id, and the message shows how.
    XCTAssertThrowsError(try ActionResolver.parse("rows[2].toggle")) { error in
      XCTAssertEqual(
        "\(error)",
        "cannot read the action 'rows[2].toggle': [2] would be an element by its position; an action names the element by its id: [id=2]")
    }
  }

  /// State paths take both: `[n]` the n-th element (1-based), `[id=X]` the element with that id,
  /// `["key"]` a field.
  func testStatePathsTakePositionsAndIds() throws {
    XCTAssertEqual(try ActionResolver.parseStatePath("rows[2].name"), [.key("rows"), .index(1), .key("name")])
    XCTAssertEqual(try ActionResolver.parseStatePath(#"rows[id="x"]["odd key"]"#), [.key("rows"), .id(.string("x")), .key("odd key")])
    XCTAssertEqual(try ActionResolver.parseStatePath("rows[0]"), [.key("rows"), .index(-1)])
    let rows = Value.identified(try IdentifiedValues([
      .record(ValueRecord([("id", .integer(7)), ("name", .string("seven"))])),
      .record(ValueRecord([("id", .integer(1)), ("name", .string("one"))])),
    ]))
    let state = Value.record(ValueRecord([("rows", rows)]))
    XCTAssertEqual(try state.at(path: "rows[1].name"), .string("seven"))
    XCTAssertEqual(try state.at(path: "rows[id=1].name"), .string("one"))
    XCTAssertEqual(try state.at(path: "rows[0]"), .null)
    XCTAssertThrowsError(try state.at(path: "rows[true]"))
  }

  func testPayloadTypes() async {
    XCTAssertNil(PayloadType(declaration: "integer")!.mismatch(.integer(3)))
    XCTAssertEqual(PayloadType(declaration: "integer")!.mismatch(.float(3.5)), "expected integer, got float 3.5")
    XCTAssertNil(PayloadType(declaration: "number")!.mismatch(.float(3.5)))
    XCTAssertNil(PayloadType(declaration: "string?")!.mismatch(.null))
    XCTAssertEqual(PayloadType(declaration: "{integer}")!.mismatch(.array([.integer(1), .string("x")])), #"element 2: expected integer, got string "x""#)
    XCTAssertEqual(PayloadType.none.mismatch(.integer(1)), "takes no payload, got integer 1")
    XCTAssertNil(PayloadType(declaration: "intger"))
  }

  func testTestEndingWithUnassertedActionsFails() async throws {
    let directory = try LuaTestDirectory()
    try directory.write("leftover_test.lua", """
      local relua = require "relua"
      local F = relua.feature "F" {
        state = { n = 0 },
        actions = { go = {}, done = {} },
        reduce = relua.on {
          go = function() return relua.Effect.send("done") end,
          done = function(s) s.n = 1 end,
        },
      }
      test("leaves an action unasserted", function()
        local store = relua.TestStore(F)
        store:send("go")
      end)
      """)
    let summary = await directory.inside { await LuaTestRunner().run(paths: ["."]) }
    XCTAssertEqual(summary.failed, 1)
    let message = summary.results.first?.failure?.message ?? ""
    XCTAssertTrue(message.contains("at the end of the test, a TestStore still has work"), message)
    XCTAssertTrue(message.contains("The store received 1 unexpected action: …"), message)
    XCTAssertTrue(message.contains("done"), message)
  }

  /// A store of the feature `source` returns, in a fresh Lua state with relua installed.
  private func makeStore(
    _ source: String, name: String, options: LuaOptions = LuaOptions()
  ) throws -> (LuaState, LuaStoreObject) {
    let lua = try LuaState(options: options)
    let host = try ReluaHost.install(in: lua)
    let feature = try lua.execute(source, name: name)[0]
    return (lua, try LuaStoreObject(host: host, feature: host.feature(feature, what: "test"), dependencies: .init()))
  }

  func testStoreSendFromSwiftAndBadActions() async throws {
    let (_, store) = try makeStore("""
      local relua = require "relua"
      return relua.feature "Counter" {
        state = { count = 0 },
        actions = { increment = {}, setCount = "integer" },
        reduce = relua.on {
          increment = function(s) s.count = s.count + 1 end,
          setCount = function(s, n) s.count = n end,
        },
      }
      """, name: "=counter")
    try store.send("increment")
    try store.send("setCount", payload: .integer(7))
    XCTAssertEqual(store.store.state[key: "count"], .integer(7))
    XCTAssertThrowsError(try store.send("decrement")) { error in
      XCTAssertEqual("\(error)", "Counter has no action 'decrement' (in 'decrement'); it accepts: increment, setCount(integer)")
    }
    XCTAssertThrowsError(try store.send("setCount", payload: .string("x"))) { error in
      XCTAssertEqual("\(error)", #"action 'setCount' of Counter: expected integer, got string "x""#)
    }
    XCTAssertEqual(store.store.state[key: "count"], .integer(7))
  }

  /// A handler in the common shape (a view, no payload, no id) is called in one C call
  /// (`relua_callhandler`); the others push their arguments from Swift. Both keep the budget per
  /// reducer call, the errors with position and traceback, and what the handler returns.
  func testHandlerCallsKeepBudgetsErrorsAndResults() async throws {
    let (lua, store) = try makeStore("""
      local relua = require "relua"
      return relua.feature "Calls" {
        state = { n = 0 },
        actions = { work = {}, workWith = "integer", raise = {}, spin = {}, nothing = {}, several = {} },
        reduce = relua.on {
          work = function(s) local x = 0 for i = 1, 30000 do x = x + i end s.n = s.n + 1 end,
          workWith = function(s, k) local x = 0 for i = 1, 30000 do x = x + i end s.n = s.n + k end,
          raise = function(s)
            s.n = 99
            error("no way")
          end,
          spin = function(s) s.n = 98; while true do end end,
          nothing = function(s) s.n = s.n + 1; return nil, "ignored" end,
          several = function(s) s.n = s.n + 1; return relua.Effect.none, "ignored" end,
        },
      }
      """, name: "=calls.lua", options: LuaOptions(instructionLimit: 200_000))
    // Each call has a budget of its own: ten calls of ≈ 120,000 instructions each run through.
    for _ in 1...10 { try store.send("work") }
    for _ in 1...10 { try store.send("workWith", payload: .integer(2)) }
    XCTAssertEqual(store.store.state[key: "n"], .integer(30))
    XCTAssertThrowsError(try store.send("raise")) { error in
      let description = (error as? ReluaError)?.fullDescription ?? "\(error)"
      XCTAssertTrue(description.contains("calls.lua:10: no way"), description)
      XCTAssertTrue(description.contains("stack traceback"), description)
      XCTAssertTrue(description.contains("handling 'raise'"), description)
    }
    XCTAssertThrowsError(try store.send("spin")) { error in
      XCTAssertTrue("\(error)".contains("instruction budget exhausted"), "\(error)")
      XCTAssertTrue("\(error)".contains("calls.lua:12"), "\(error)")
    }
    XCTAssertEqual(store.store.state[key: "n"], .integer(30))
    try store.send("nothing")
    try store.send("several")
    XCTAssertEqual(store.store.state[key: "n"], .integer(32))
    try store.send("work")
    XCTAssertEqual(store.store.state[key: "n"], .integer(33))
    try lua.withRawState { L in XCTAssertEqual(LuaRawStack(L).top, 0, "nothing left on the stack") }
  }

  /// The one-C-call handler path on a Lua stack filled to its limit: it cannot push its nine
  /// values, so the send fails with "Lua stack overflow", the state unchanged; then it works again.
  func testHandlerCallOnAFullLuaStackFailsCleanly() async throws {
    let (lua, store) = try makeStore("""
      local relua = require "relua"
      return relua.feature "Bump" {
        state = { n = 0 },
        actions = { bump = {} },
        reduce = relua.on { bump = function(s) s.n = s.n + 1 end },
      }
      """, name: "=bump.lua")
    try store.send("bump")
    var failure: (any Error)?
    var filled = 0
    // Unowned: the state keeps this function (a strong capture would keep the state alive).
    try lua.registerRaw("sendOnFullStack") { [unowned lua] _ in
      try lua.withRawState { L in
        let L = LuaRawStack(L)
        let base = L.top
        while L.checkStack(64) { for _ in 0..<64 { L.pushNil() } }
        while L.checkStack(1) { L.pushNil() }
        filled = Int(L.top - base)
        defer { L.setTop(base) }
        XCTAssertThrowsError(try MainActor.assumeIsolated { try store.send("bump") }) { failure = $0 }
      }
      return .none
    }
    try lua.execute("sendOnFullStack()")
    XCTAssertGreaterThan(filled, 900_000, "the stack was filled to Lua's limit")
    XCTAssertTrue("\(failure.map { "\($0)" } ?? "none")".contains("Lua stack overflow"), "\(String(describing: failure))")
    XCTAssertEqual(store.store.state[key: "n"], .integer(1))
    try store.send("bump")
    XCTAssertEqual(store.store.state[key: "n"], .integer(2))
    try lua.withRawState { L in XCTAssertEqual(LuaRawStack(L).top, 0, "nothing left on the stack") }
  }

  func testRunawayAndMemoryBombReducersLeaveTheStateAndTheHostUsable() async throws {
    let (_, store) = try makeStore("""
      local relua = require "relua"
      return relua.feature "Risky" {
        state = { n = 0 },
        actions = { spin = {}, bomb = {}, inc = {} },
        reduce = relua.on {
          spin = function(s) s.n = 1; while true do end end,
          bomb = function(s) s.n = 2; local t = {} for i = 1, 1e9 do t[i] = ("x"):rep(1000) .. i end end,
          inc = function(s) s.n = s.n + 1 end,
        },
      }
      """, name: "=risky.lua", options: LuaOptions(memoryLimit: 64 << 20, instructionLimit: 1_000_000))
    XCTAssertThrowsError(try store.send("spin")) { error in
      XCTAssertTrue("\(error)".contains("instruction budget exhausted"), "\(error)")
      XCTAssertTrue("\(error)".contains("risky.lua:"), "\(error)")
    }
    XCTAssertEqual(store.store.state[key: "n"], .integer(0))
    XCTAssertThrowsError(try store.send("bomb")) { error in
      XCTAssertTrue("\(error)".contains("memory limit"), "\(error)")
    }
    XCTAssertEqual(store.store.state[key: "n"], .integer(0))
    try store.send("inc")
    XCTAssertEqual(store.store.state[key: "n"], .integer(1))
  }
}
