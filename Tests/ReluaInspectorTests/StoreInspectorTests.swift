import Foundation
import ReluaInspector
import WebSocket
import XCTest
import Relua
import ReluaTesting

/// The inspector of a store a Swift program made (`StoreInspector`), through its public API only:
/// the program's sends, the page's, a jump and an export, as the REPL's inspector has them.
@MainActor
final class StoreInspectorTests: XCTestCase {
  static let counter = """
    local relua = require "relua"
    return relua.feature "Counter" {
      state = { count = 0 },
      actions = { increment = {}, setCount = "integer", save = {}, fail = {} },
      reduce = relua.on {
        increment = function(s) s.count = s.count + 1 end,
        setCount = function(s, n) s.count = n end,
        fail = function(s) s.count = 99; error("no") end,
        -- An effect that ends without sending anything (no entry tells the page it ended).
        save = function(s, _, deps) return relua.Effect.run(function() deps.clock.sleep(0.05) end) end,
      },
    }
    """

  func testAProgramsStoreIsInspectedAndDrivenFromThePage() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relua-store-inspector-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("Counter.lua").path
    try Self.counter.write(toFile: file, atomically: true, encoding: .utf8)
    let runtime = try ReluaRuntime(scriptRoots: [directory.path])
    let store = try runtime.makeStore(try runtime.loadFeature(file: file))
    try store.send("increment")  // before: not in the log, the state it starts from

    let inspector = try await StoreInspector.start(inspecting: store)
    let url = inspector.url.absoluteString
    XCTAssertTrue(url.hasPrefix("http://127.0.0.1:"), url)
    let token = try XCTUnwrap(URLComponents(string: url)?.queryItems?.first { $0.name == "token" }?.value)
    let port = try XCTUnwrap(inspector.url.port)
    let connection = try await PageConnection(port: port, token: token)
    func next() async throws -> [String: Any] { try await connection.next() }
    let history = try await next()
    XCTAssertEqual((history["feature"] as? [String: Any])?["name"] as? String, "Counter")
    XCTAssertEqual(history["state"] as? [String: Int], ["count": 1])

    try store.send("setCount", 5)
    let sent = try await next()
    XCTAssertEqual((sent["entry"] as? [String: Any])?["sender"] as? String, "program")
    XCTAssertEqual(sent["state"] as? [String: Int], ["count": 5])

    try await connection.send((#"{"type": "send", "request": 1, "action": "increment"}"#))
    let fromPage = try await next()
    XCTAssertEqual((fromPage["entry"] as? [String: Any])?["sender"] as? String, "page")
    XCTAssertEqual(store.state, ["count": 6])
    let answered = try await next()
    XCTAssertEqual(answered["request"] as? Int, 1)

    try await connection.send((#"{"type": "send", "request": 2, "action": "setCount", "payload": true}"#))
    let refused = try await next()
    XCTAssertEqual(refused["request"] as? Int, 2)
    XCTAssertTrue((refused["error"] as? String)?.contains("setCount") ?? false, "\(refused)")
    XCTAssertEqual(store.state, ["count": 6])

    try await connection.send((#"{"type": "jump", "request": 3, "index": 1}"#))
    let jumped = try await next()
    XCTAssertEqual((jumped["entry"] as? [String: Any])?["kind"] as? String, "jump")
    XCTAssertEqual(store.state, ["count": 5])
    let jumpAnswer = try await next()
    XCTAssertNil(jumpAnswer["error"])

    // An effect the page started, ending on its own: the page is told, with no entry.
    try await connection.send(#"{"type": "send", "request": 5, "action": "save"}"#)
    let saving = try await next()
    XCTAssertEqual(((saving["live"] as? [String: Any])?["effects"] as? [Any])?.count, 1, "\(saving)")
    let saveAnswer = try await next()
    XCTAssertEqual(saveAnswer["request"] as? Int, 5)
    let ended = try await next()
    XCTAssertEqual(ended["type"] as? String, "live")
    XCTAssertEqual(((ended["live"] as? [String: Any])?["effects"] as? [Any])?.count, 0, "\(ended)")

    try store.send("increment")
    _ = try await next()
    // The program's send that fails: rolled back, in the log and in the export alike.
    XCTAssertThrowsError(try store.send("fail"))
    try await connection.send((#"{"type": "export", "request": 4}"#))
    let export = try await next()
    XCTAssertEqual(export["fileName"] as? String, "Counter_session_test.lua")
    let text = try XCTUnwrap(export["text"] as? String, "\(export)")
    XCTAssertFalse(text.contains("\"fail\""), text)
    XCTAssertTrue(text.contains("store:send(\"increment\""), text)
    let test = directory.appendingPathComponent("Counter_session_test.lua").path
    try text.write(toFile: test, atomically: true, encoding: .utf8)
    let summary = await ReluaRuntime.runTests(paths: [test])
    XCTAssertEqual(summary.passed, 1, summary.results.compactMap(\.failure).map { "\($0)" }.joined(separator: "\n"))

    connection.close()
    await inspector.stop()
    // The store goes on as it was given.
    try store.send("increment")
    XCTAssertEqual(store.state, ["count": 7])
  }
}
