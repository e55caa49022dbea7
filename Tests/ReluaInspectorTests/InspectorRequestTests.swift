import Foundation
import ReluaInspector
import WebSocket
import XCTest
@testable import Relua
@testable import ReluaTesting
@testable import ReluaConsole

/// A page driving the REPL through the inspector's WebSocket: each request does what the REPL
/// would do typed (it prints it), with the same validation; the answers come back by number.
@MainActor
final class InspectorRequestTests: XCTestCase {
  /// A tally with a timer that runs until cancelled, for the effects in flight.
  static let timed = """
    local relua = require "relua"
    local feature, on, Effect = relua.feature, relua.on, relua.Effect
    return feature "Tally" {
      state = { count = 0 },
      actions = { increment = {}, setCount = "integer", start = {}, tick = {} },
      reduce = on {
        increment = function(s) s.count = s.count + 1 end,
        setCount = function(s, n) s.count = n end,
        start = function(s, _, deps)
          return Effect.run(function(send)
            while true do deps.clock.sleep(60); send("tick") end
          end):cancellable("timer", true)
        end,
        tick = function(s) s.count = s.count + 1 end,
      },
    }
    """

  private var server: InspectorServer!
  private var repl: ReplSession!
  private var connection: PageConnection!
  private var nextRequest = 0

  private func open(_ source: String = ReplSession.tally) async throws {
    let hub = InspectorHub()
    repl = try await ReplSession(feature: source) { hub.record($0) }
    server = try await InspectorServer.start(hub: hub, session: repl.session)
    connection = try await PageConnection(port: Int(server.port), token: server.token.hex)
    let history = try await next()
    XCTAssertEqual(history["type"] as? String, "history")
  }

  override func tearDown() async throws {
    connection?.close()
    await server?.stop()
    repl?.close()
  }

  private func next() async throws -> [String: Any] {
    try await connection.next()
  }

  /// Sends a request and returns its answer, with the messages that came before it.
  private func request(_ fields: [String: Any]) async throws -> (result: [String: Any], before: [[String: Any]]) {
    nextRequest += 1
    var message = fields
    message["request"] = nextRequest
    try await send(String(decoding: try JSONSerialization.data(withJSONObject: message), as: UTF8.self))
    var before: [[String: Any]] = []
    while true {
      let received = try await next()
      if received["type"] as? String == "result", received["request"] as? Int == nextRequest { return (received, before) }
      before.append(received)
    }
  }

  private func send(_ text: String) async throws {
    try await connection.send(text)
  }

  func testASendFromThePageIsSentAsTypedAndShownInTheREPL() async throws {
    try await open()
    let (result, before) = try await request(["type": "send", "action": "setCount", "payload": 5])
    XCTAssertNil(result["error"])
    let entry = try XCTUnwrap(before.first { $0["type"] as? String == "entry" })
    XCTAssertEqual(entry["state"] as? [String: Int], ["count": 5])
    let fields = try XCTUnwrap(entry["entry"] as? [String: Any])
    XCTAssertEqual(fields["name"] as? String, "setCount")
    XCTAssertEqual(fields["payload"] as? String, "5")
    XCTAssertEqual(fields["sender"] as? String, "page")
    XCTAssertEqual(repl.session.feature?.currentState, ["count": 5])
    XCTAssertTrue(repl.output.contains("(inspector) :setCount 5"), repl.output)
    XCTAssertTrue(repl.output.contains("+   count = 5,"), repl.output)
    // The prompt's sends are still typed.
    await repl.type(":increment")
    let typed = try await next()
    XCTAssertEqual((typed["entry"] as? [String: Any])?["sender"] as? String, "typed")
  }

  func testABadPayloadGetsTheErrorTheREPLPrintsTypedAndChangesNothing() async throws {
    try await open()
    await repl.type(":setCount \"x\"")
    let typedError = try XCTUnwrap(repl.output.split(separator: "\n").last.map(String.init))
    let (result, before) = try await request(["type": "send", "action": "setCount", "payload": "x"])
    XCTAssertEqual(result["error"] as? String, typedError)
    XCTAssertTrue(typedError.contains("setCount"), typedError)
    XCTAssertTrue(before.isEmpty, "\(before)")
    XCTAssertEqual(repl.session.feature?.currentState, ["count": 0])

    let (unknown, _) = try await request(["type": "send", "action": "nope"])
    XCTAssertTrue((unknown["error"] as? String)?.contains("nope") ?? false, "\(unknown)")
    // A failing reducer: rolled back, its error told, nothing in the log.
    let (failed, nothing) = try await request(["type": "send", "action": "fail"])
    XCTAssertTrue((failed["error"] as? String)?.contains("no") ?? false, "\(failed)")
    XCTAssertTrue(nothing.isEmpty, "\(nothing)")
    XCTAssertEqual(repl.session.feature?.currentState, ["count": 0])
  }

  func testBrokenRequestsAreRefusedSayingWhy() async throws {
    try await open()
    try await send("not json")
    let notJSON = try await next()
    XCTAssertEqual(notJSON["type"] as? String, "result")
    XCTAssertTrue((notJSON["error"] as? String)?.hasPrefix("a request must be JSON") ?? false, "\(notJSON)")
    let (unknown, _) = try await request(["type": "explode"])
    XCTAssertEqual(unknown["error"] as? String, "unknown request type \"explode\": send, jump, stateAt, cancel or export")
    let (noIndex, _) = try await request(["type": "jump", "index": "3"])
    XCTAssertEqual(noIndex["error"] as? String, "\"jump\" needs an integer \"index\"")
    let (missing, _) = try await request(["type": "jump", "index": 42])
    XCTAssertEqual(missing["error"] as? String, "entry #42 is not in the log (or no longer kept)")
    XCTAssertEqual(repl.session.feature?.currentState, ["count": 0])
  }

  /// Every number a page sends is input to arithmetic: the extremes of Int64 (a trap on overflow
  /// would kill the REPL and its session), numbers below the first entry or effect and past 2^53
  /// are refused by number, and the session goes on.
  func testNumbersAtTheEdgesOfIntAreRefusedAndTheSessionGoesOn() async throws {
    try await open()
    await repl.type(":increment")
    _ = try await next()
    for type in ["jump", "stateAt", "cancel"] {
      let field = type == "cancel" ? "effect" : "index"
      let first = type == "cancel" ? 0 : 1
      for number in ["-9223372036854775808", "9223372036854775807", "\(first - 1)", "-2", "9007199254740993"] {
        nextRequest += 1
        try await send(#"{"type": "\#(type)", "request": \#(nextRequest), "\#(field)": \#(number)}"#)
        let answer = try await next()
        XCTAssertEqual(answer["request"] as? Int, nextRequest, "\(type) \(number)")
        XCTAssertEqual(answer["error"] as? String, "\"\(field)\" must be from \(first) to 9007199254740992, not \(number)", "\(type) \(number)")
      }
    }
    // The request's own number is only echoed: any Int64 is answered as sent.
    try await send(#"{"type": "stateAt", "request": -9223372036854775808, "index": 1}"#)
    let extreme = try await next()
    XCTAssertEqual((extreme["request"] as? NSNumber)?.int64Value, Int64.min)
    XCTAssertEqual(extreme["state"] as? [String: Int], ["count": 1])
    XCTAssertEqual(repl.session.feature?.currentState, ["count": 1])
    let (look, _) = try await request(["type": "stateAt", "index": 1])
    XCTAssertEqual(look["state"] as? [String: Int], ["count": 1])
    // The hub's own lookup takes any Int without trapping.
    for index in [Int.min, Int.max, 0, -1, 2] { XCTAssertNil(server.hub.state(after: index), "\(index)") }
  }

  func testTheStateAfterAnEntryAndAJumpToItThatTheREPLFollowsAndCanUndo() async throws {
    try await open()
    await repl.type(":increment")
    await repl.type(":setCount 7")
    for _ in 0..<2 { _ = try await next() }
    let (look, _) = try await request(["type": "stateAt", "index": 1])
    XCTAssertEqual(look["state"] as? [String: Int], ["count": 1])
    XCTAssertEqual(look["index"] as? Int, 1)

    let (jumped, before) = try await request(["type": "jump", "index": 1])
    XCTAssertNil(jumped["error"])
    let entry = try XCTUnwrap(before.first { $0["type"] as? String == "entry" })
    XCTAssertEqual((entry["entry"] as? [String: Any])?["kind"] as? String, "jump")
    XCTAssertEqual((entry["entry"] as? [String: Any])?["to"] as? Int, 1)
    XCTAssertEqual(entry["state"] as? [String: Int], ["count": 1])
    XCTAssertEqual(repl.session.feature?.currentState, ["count": 1])
    XCTAssertTrue(repl.output.contains("(inspector) jump to the state after #1"), repl.output)
    // The REPL's :undo goes back to before the jump, and the page sees it.
    await repl.type(":undo")
    XCTAssertEqual(repl.session.feature?.currentState, ["count": 7])
    let undone = try await next()
    XCTAssertEqual((undone["entry"] as? [String: Any])?["kind"] as? String, "undo")
  }

  /// A holder of an optional child; `inner` (absent at first) gives the child a scope of its own.
  static func holder(inner: Bool) -> String {
    """
    local relua = require "relua"
    local feature, on = relua.feature, relua.on
    local Inner = feature "Inner" { state = { m = 0 }, actions = {}, reduce = on {} }
    local Child = feature "Child" {
      state = { n = 0 },
      actions = {},
      \(inner ? "compose = { relua.scope(\"inner\", Inner) }," : "")
      reduce = on {},
    }
    return feature "Holder" {
      state = { child = nil },
      actions = { open = {}, close = {} },
      compose = { relua.optional("child", Child) },
      reduce = on {
        open = function(s) s.child = { n = 0 } end,
        close = function(s) s.child = nil end,
      },
    }
    """
  }

  func testAJumpToAStateTheReloadedFeatureNoLongerFitsIsRefusedAndChangesNothing() async throws {
    try await open(Self.holder(inner: false))
    await repl.type(":open")
    await repl.type(":close")
    for _ in 0..<2 { _ = try await next() }
    // Reloaded, the child needs an `inner` its state after #1 does not have.
    let file = try XCTUnwrap(repl.session.feature?.file)
    try Self.holder(inner: true).write(toFile: file, atomically: true, encoding: .utf8)
    await repl.type(":reload")
    XCTAssertTrue(repl.output.contains("the state is kept"), repl.output)
    _ = try await next()
    let before = repl.session.feature?.currentState
    let (refused, entries) = try await request(["type": "jump", "index": 1])
    let error = try XCTUnwrap(refused["error"] as? String, "\(refused)")
    XCTAssertTrue(error.hasPrefix("the state after #1 does not fit the feature as it is now (reloaded?): "), error)
    XCTAssertTrue(error.contains("inner"), error)
    XCTAssertTrue(entries.isEmpty, "\(entries)")
    XCTAssertEqual(repl.session.feature?.currentState, before)
  }

  func testAJumpIsRefusedWhileTheREPLRecordsATest() async throws {
    try await open()
    await repl.type(":increment")
    _ = try await next()
    // (Beside the feature: the test written at :stop requires it from there.)
    let directory = URL(fileURLWithPath: try XCTUnwrap(repl.session.feature?.file)).deletingLastPathComponent()
    await repl.type(":record \(directory.path)/Tally_test.lua")
    XCTAssertTrue(repl.output.contains("recording to"), repl.output)
    // The page learns at once that jumps are off (no entry: only what is shown beside the log).
    let recording = try await next()
    XCTAssertEqual(recording["type"] as? String, "live")
    XCTAssertEqual((recording["live"] as? [String: Any])?["travel"] as? Bool, false)
    let (refused, _) = try await request(["type": "jump", "index": 1])
    XCTAssertTrue((refused["error"] as? String)?.contains(":stop the recording first") ?? false, "\(refused)")
    XCTAssertEqual(repl.session.feature?.currentState, ["count": 1])
    await repl.type(":stop")
    XCTAssertTrue(repl.output.contains("wrote "), repl.output)
    let stopped = try await next()
    XCTAssertEqual((stopped["live"] as? [String: Any])?["travel"] as? Bool, true)
  }

  func testEffectsInFlightAreShownAndOneCanBeCancelled() async throws {
    try await open(Self.timed)
    await repl.type(":start")
    let started = try await next()
    let effects = try XCTUnwrap((started["live"] as? [String: Any])?["effects"] as? [[String: Any]])
    XCTAssertEqual(effects.count, 1)
    XCTAssertEqual(effects[0]["cancelIDs"] as? [String], ["\"timer\""])  // Lua literals, as :cancel lists them
    let id = try XCTUnwrap(effects[0]["id"] as? Int)
    let (result, before) = try await request(["type": "cancel", "effect": id])
    XCTAssertNil(result["error"])
    XCTAssertEqual(repl.session.feature?.store.store.runningEffects, [])
    XCTAssertTrue(repl.output.contains("(inspector) cancelled effect #\(id)"), repl.output)
    XCTAssertEqual((before.last?["live"] as? [String: Any])?["effects"] as? [[String: Any]] as? NSArray, [] as NSArray)
    let (again, _) = try await request(["type": "cancel", "effect": id])
    XCTAssertEqual(again["error"] as? String, "no effect #\(id) is running")
  }

  func testTheScreensAndTheActionsThatCanBeSentComeWithEachEntry() async throws {
    try await open()
    await repl.type(":increment")
    let entry = try await next()
    let live = try XCTUnwrap(entry["live"] as? [String: Any])
    let screens = try XCTUnwrap(live["screens"] as? [[String: Any]])
    XCTAssertEqual(screens.map { $0["name"] as? String }, ["Tally"])
    XCTAssertEqual(screens.first?["kind"] as? String, "root")
    XCTAssertEqual(screens.first?["text"] as? String, "{ count = 1 }")
    let actions = try XCTUnwrap(live["actions"] as? [[String: Any]])
    XCTAssertEqual(actions.map { $0["path"] as? String }, ["double", "doubled", "fail", "increment", "setCount"])
    XCTAssertEqual(actions.first { $0["path"] as? String == "setCount" }?["payload"] as? String, "integer")
    XCTAssertNil(actions.first { $0["path"] as? String == "increment" }?["payload"], "no payload: no field")
    XCTAssertEqual(live["travel"] as? Bool, true)
  }

  func testAnExportIsATestOfTheSessionThatPasses() async throws {
    try await open()
    await repl.type(":increment")
    _ = try await request(["type": "send", "action": "setCount", "payload": 5])
    await repl.type(":double")
    let (export, _) = try await request(["type": "export"])
    XCTAssertNil(export["error"])
    XCTAssertEqual(export["fileName"] as? String, "Tally_session_test.lua")
    let text = try XCTUnwrap(export["text"] as? String)
    XCTAssertTrue(text.contains("store:send(\"setCount\", 5,"), text)
    XCTAssertTrue(text.contains("store:receive(\"doubled\""), text)
    // Saved beside the feature's script, it passes.
    let feature = try XCTUnwrap(repl.session.feature?.file)
    let path = URL(fileURLWithPath: feature).deletingLastPathComponent().appendingPathComponent("Tally_session_test.lua").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let summary = await LuaTestRunner().run(paths: [path])
    XCTAssertEqual(summary.passed, 1, summary.results.compactMap(\.failure).map { "\($0)" }.joined(separator: "\n"))
    XCTAssertEqual(summary.failed, 0)

    // After a jump, an export starts from there.
    _ = try await request(["type": "jump", "index": 1])
    let (fresh, _) = try await request(["type": "export"])
    XCTAssertFalse((fresh["text"] as? String)?.contains("store:send") ?? true, "\(fresh)")
  }

  struct Failure: Error, CustomStringConvertible { var description: String }
}
