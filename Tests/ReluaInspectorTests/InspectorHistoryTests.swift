import Foundation
import ReluaInspector
import WebSocket
import XCTest
@testable import Relua
@testable import ReluaConsole

/// The inspector fed by a real REPL session: a page that connects late gets the history, then
/// what happens live.
@MainActor
final class InspectorHistoryTests: XCTestCase {
  func testALatePageGetsTheHistoryThenEachActionLive() async throws {
    let server = try await InspectorServer.start()
    let hub = server.hub
    let repl = try await ReplSession { hub.record($0) }
    defer { repl.close() }
    await repl.type(":increment")
    await repl.type(":double")

    let connection = try await WebSocketConnection.connect(
      to: "ws://127.0.0.1:\(server.port)/ws?token=\(server.token.hex)", origin: "http://127.0.0.1:\(server.port)")
    var messages = connection.messages.makeAsyncIterator()
    let history = try await Self.json(messages.next())
    XCTAssertEqual(history["type"] as? String, "history")
    XCTAssertEqual((history["feature"] as? [String: Any])?["name"] as? String, "Tally")
    XCTAssertTrue(((history["feature"] as? [String: Any])?["file"] as? String)?.hasSuffix("/Tally.lua") ?? false)
    XCTAssertEqual(history["state"] as? [String: Int], ["count": 4])
    let entries = try XCTUnwrap(history["entries"] as? [[String: Any]])
    XCTAssertEqual(entries.map { $0["index"] as? Int }, [1, 2, 3])
    XCTAssertEqual(entries.map { $0["kind"] as? String }, ["action", "action", "action"])
    XCTAssertEqual(entries.map { $0["name"] as? String }, ["increment", "double", "doubled"])
    XCTAssertEqual(entries.map { $0["sender"] as? String }, ["typed", "typed", "effect"])
    XCTAssertEqual(entries.map { $0["payload"] as? String }, ["", "", ""])
    XCTAssertEqual(entries[0]["diff"] as? [String], ["  {", "−   count = 0,", "+   count = 1,", "  }"])
    let now = Date().timeIntervalSince1970 * 1000
    for entry in entries {
      let time = try XCTUnwrap(entry["time"] as? Double)
      XCTAssertLessThan(abs(now - time), 60_000, "\(time) is not a time of this minute in milliseconds")
    }

    await repl.type(":setCount 7")
    let live = try await Self.json(messages.next())
    XCTAssertEqual(live["type"] as? String, "entry")
    XCTAssertEqual(live["state"] as? [String: Int], ["count": 7])
    let entry = try XCTUnwrap(live["entry"] as? [String: Any])
    XCTAssertEqual(entry["index"] as? Int, 4)
    XCTAssertEqual(entry["name"] as? String, "setCount")
    XCTAssertEqual(entry["payload"] as? String, "7")
    XCTAssertEqual(entry["sender"] as? String, "typed")
    XCTAssertEqual(entry["diff"] as? [String], ["  {", "−   count = 4,", "+   count = 7,", "  }"])

    await repl.type(":undo")
    let undone = try await Self.json(messages.next())
    XCTAssertEqual((undone["entry"] as? [String: Any])?["kind"] as? String, "undo")
    XCTAssertNil((undone["entry"] as? [String: Any])?["name"])
    XCTAssertEqual(undone["state"] as? [String: Int], ["count": 4])

    // The page gone, the hub forgets it.
    connection.close()
    try await waitUntil { hub.clientCount == 0 }
    await server.stop()
  }

  func testTwoPagesGetTheSameEntries() async throws {
    let server = try await InspectorServer.start()
    let hub = server.hub
    let repl = try await ReplSession { hub.record($0) }
    defer { repl.close() }
    let url = "ws://127.0.0.1:\(server.port)/ws?token=\(server.token.hex)"
    let origin = "http://127.0.0.1:\(server.port)"
    let first = try await WebSocketConnection.connect(to: url, origin: origin)
    let second = try await WebSocketConnection.connect(to: url, origin: origin)
    var firstMessages = first.messages.makeAsyncIterator()
    var secondMessages = second.messages.makeAsyncIterator()
    _ = try await firstMessages.next()
    _ = try await secondMessages.next()
    await repl.type(":increment")
    let one = try await Self.json(firstMessages.next())
    let other = try await Self.json(secondMessages.next())
    XCTAssertEqual((one["entry"] as? [String: Any])?["name"] as? String, "increment")
    XCTAssertEqual((other["entry"] as? [String: Any])?["name"] as? String, "increment")
    first.close()
    second.close()
    await server.stop()
  }

  func testAStateWithoutAJSONFormIsSaidSo() async throws {
    let hub = InspectorHub()
    let messages = hub.subscribe().messages
    hub.record(ConsoleEvent(kind: .opened(feature: "F", file: "f.lua"), diff: [], state: ["x": .float(.nan)]))
    var iterator = messages.makeAsyncIterator()
    _ = await iterator.next()  // the history when it subscribed
    let reset = try Self.json(.text(await iterator.next() ?? ""))
    XCTAssertNil(reset["state"])
    XCTAssertEqual(reset["stateError"] as? String, "JSON: nan has no JSON form")
    hub.close()
  }

  func testTheStateAfterAnEntryIsKeptAsLongAsTheEntry() {
    let hub = InspectorHub()
    hub.record(ConsoleEvent(kind: .opened(feature: "F", file: "f.lua"), diff: [], state: ["n": 0]))
    let more = 2
    for n in 1...(InspectorHub.keptEntries + more) {
      hub.record(ConsoleEvent(kind: .action(name: "step", payload: "", sender: .typed), diff: [], state: ["n": .integer(Int64(n))]))
    }
    // The first `more` entries were dropped with their states; the rest are there, by index.
    XCTAssertNil(hub.state(after: 1))
    XCTAssertNil(hub.state(after: more))
    XCTAssertEqual(hub.state(after: more + 1), ["n": .integer(Int64(more + 1))])
    XCTAssertEqual(hub.state(after: InspectorHub.keptEntries + more), ["n": .integer(Int64(InspectorHub.keptEntries + more))])
    XCTAssertNil(hub.state(after: InspectorHub.keptEntries + more + 1))
    hub.close()
  }

  // MARK: Helpers

  private static func json(_ message: WebSocketMessage?) throws -> [String: Any] {
    guard case .text(let text)? = message else { throw Failure(description: "expected a text message, got \(String(describing: message))") }
    return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
  }

  private func waitUntil(_ condition: @escaping () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(5)
    while !condition() {
      guard ContinuousClock.now < deadline else { throw Failure(description: "timed out") }
      try await Task.sleep(for: .milliseconds(10))
    }
  }

  struct Failure: Error, CustomStringConvertible { var description: String }
}
