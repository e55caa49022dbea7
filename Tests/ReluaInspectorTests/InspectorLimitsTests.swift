import Foundation
import ReluaInspector
import WebSocket
import XCTest
#if canImport(Glibc)
import Glibc
@testable import ReluaConsole
#endif

/// What a page, or anything else that reaches the port, can make the inspector hold (#31): a
/// frame or a message in fragments is refused by its declared length before it is read (1009), a
/// head has a limit (431), a silent client a timeout, and connections a cap. Real sockets over
/// loopback; after each, a normal page connects and works.
final class InspectorLimitsTests: XCTestCase {
  private var server: InspectorServer!

  override func tearDown() async throws {
    await server?.stop()
  }

  private func start(_ change: (inout InspectorLimits) -> Void = { _ in }) async throws {
    var limits = InspectorLimits.standard
    change(&limits)
    server = try await InspectorServer.start(limits: limits)
  }

  private var port: UInt16 { server.port }
  private var token: String { server.token.hex }

  // MARK: WebSocket frames

  func testAFrameDeclaring400MBIsRefusedAtOnceWith1009WithoutReadingIt() async throws {
    try await start()
    let before = Self.residentBytes()
    let client = try await RawClient.connect(port: port)
    defer { client.close() }
    try await client.openWebSocket(token: token)
    // The header of a masked text frame of 400,000,000 bytes, and 10 of them: no more is sent.
    var frame: [UInt8] = [0x81, 0x80 | 127]
    frame += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(400_000_000) >> (56 - 8 * UInt64($0))) }
    frame += [1, 2, 3, 4] + [UInt8](repeating: 0x20, count: 10)
    let started = ContinuousClock.now
    try await client.send(frame)
    let code = try await client.closeCode()
    XCTAssertEqual(code, 1009)
    XCTAssertLessThan(ContinuousClock.now - started, .seconds(2), "refused at once, not after a timeout")
    let ended = try await client.atEnd()
    XCTAssertTrue(ended, "the connection is closed after the close frame")
    try await served(client)
    XCTAssertEqual(server.stats.closeCodes, [1009])
    XCTAssertGreaterThan(server.stats.peakBuffered, 0)
    XCTAssertLessThan(server.stats.peakBuffered, 64 << 10, "the server read the frame's header, not its payload")
    XCTAssertLessThan(Self.residentBytes() - before, 64 << 20, "the process did not grow by the frame")
    try await assertAPageWorks()
  }

  func testFragmentsAddingUpPastTheLimitAreRefusedByTheDeclaredLengthOfTheOneThatWouldPassIt() async throws {
    try await start()
    let limit = server.limits.maxMessage
    let client = try await RawClient.connect(port: port)
    defer { client.close() }
    try await client.openWebSocket(token: token)
    // 600 KiB sent whole, then a continuation declaring 600 KiB more (its header and 10 bytes).
    try await client.send(RawClient.maskedFrame(fin: false, opcode: 1, [UInt8](repeating: 0x20, count: 600 << 10)))
    var next = RawClient.maskedFrame(fin: false, opcode: 0, [UInt8](repeating: 0x20, count: 600 << 10))
    next.removeLast((600 << 10) - 10)
    try await client.send(next)
    let code = try await client.closeCode()
    XCTAssertEqual(code, 1009)
    try await served(client)
    XCTAssertEqual(server.stats.closeCodes, [1009])
    XCTAssertLessThanOrEqual(server.stats.peakBuffered, limit, "at most the limit held (the first fragment and a read's chunk)")
    XCTAssertGreaterThanOrEqual(server.stats.peakBuffered, 600 << 10)
    XCTAssertLessThan(server.stats.peakBuffered, (600 << 10) + (64 << 10))
    XCTAssertEqual(server.stats.longestMessage, 0, "nothing reached the control")
    try await assertAPageWorks()
  }

  func testAMessageOfExactlyTheLimitInFragmentsIsReadAndAnswered() async throws {
    try await start()
    let limit = server.limits.maxMessage
    let client = try await RawClient.connect(port: port)
    defer { client.close() }
    try await client.openWebSocket(token: token)
    _ = try await client.textMessage()  // the history
    // {"type": "export", "request": 9}, padded with spaces to the limit, in two fragments.
    var text = Array(#"{"type": "export", "request": 9"#.utf8)
    text += [UInt8](repeating: 0x20, count: limit - text.count - 1) + Array("}".utf8)
    try await client.send(RawClient.maskedFrame(fin: false, opcode: 1, Array(text[..<(limit / 2)])))
    try await client.send(RawClient.maskedFrame(fin: true, opcode: 0, Array(text[(limit / 2)...])))
    let answer = try await client.textMessage()
    // (Without a store attached, every request is refused, unnumbered.)
    XCTAssertTrue(answer.contains("no store is attached"), answer)
    try await served(client)
    XCTAssertEqual(server.stats.longestMessage, limit)
    XCTAssertEqual(server.stats.closeCodes, [])
  }

  func testAnUnmaskedFrameFromAClientIsAProtocolError() async throws {
    try await start()
    let client = try await RawClient.connect(port: port)
    defer { client.close() }
    try await client.openWebSocket(token: token)
    try await client.send(WebSocketFrame(.text, Array("{}".utf8)).encoded())
    let code = try await client.closeCode()
    XCTAssertEqual(code, 1002)
    try await assertAPageWorks()
  }

  // MARK: HTTP

  func testAHeadOverTheLimitGets431AndTheConnectionCloses() async throws {
    try await start()
    let client = try await RawClient.connect(port: port)
    defer { client.close() }
    // 1 MiB of a header that never ends, written on a thread of its own (the server stops reading
    // at its limit: the writer may fail, as it should).
    let head = Array("GET /?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Long: ".utf8) + [UInt8](repeating: 0x61, count: 1 << 20)
    client.sendInBackground(head)
    let response = try await client.readToEnd()
    let text = String(decoding: response, as: UTF8.self)
    XCTAssertTrue(text.isEmpty || text.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"), text)
    try await served(client)
    XCTAssertGreaterThan(server.stats.peakBuffered, server.limits.maxHead)
    XCTAssertLessThanOrEqual(server.stats.peakBuffered, server.limits.maxHead + (16 << 10))
    XCTAssertEqual(server.stats.requests, 0)
    // A whole head a little over the limit, arriving in one read, is refused all the same.
    let whole = try await RawClient.connect(port: port)
    defer { whole.close() }
    let padding = [UInt8](repeating: 0x61, count: server.limits.maxHead)
    try await whole.send(Array("GET /?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Long: ".utf8) + padding + Array("\r\n\r\n".utf8))
    let refused = String(decoding: try await whole.readToEnd(), as: UTF8.self)
    XCTAssertTrue(refused.hasPrefix("HTTP/1.1 431 "), refused)
    try await served(whole)
    XCTAssertEqual(server.stats.requests, 0)
    try await assertAPageWorks()
  }

  func testAClientThatSendsNothingIsDroppedAfterTheTimeoutWithoutBlockingOthers() async throws {
    try await start { $0.headTimeout = .milliseconds(500) }
    let silent = try await RawClient.connect(port: port)
    defer { silent.close() }
    let trickling = try await RawClient.connect(port: port)
    defer { trickling.close() }
    let started = ContinuousClock.now
    // Meanwhile, a page is served as if they were not there.
    let page = try await LoopbackHTTP.get(port: port, "/?token=\(token)")
    XCTAssertEqual(page.status, 200)
    XCTAssertLessThan(ContinuousClock.now - started, .milliseconds(400))
    // A head sent a byte every 100 ms never completes in time either.
    let trickle = Array("GET /?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n".utf8)
    trickling.sendInBackground(trickle, pause: .milliseconds(100))
    let silentEnd = try await silent.readToEnd()
    XCTAssertEqual(silentEnd, [])
    let elapsed = ContinuousClock.now - started
    XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(450))
    XCTAssertLessThan(elapsed, .seconds(3))
    let trickled = try await trickling.readToEnd()
    XCTAssertEqual(trickled, [])
    XCTAssertLessThan(ContinuousClock.now - started, .seconds(3))
    try await assertAPageWorks()
  }

  func testThe33rdConnectionIsRefusedWhile32AreHeld() async throws {
    try await start()
    XCTAssertEqual(server.limits.maxConnections, 32)
    var held: [RawClient] = []
    for _ in 0..<32 { held.append(try await RawClient.connect(port: port)) }
    try await waitUntil { self.server.openConnections == 32 }
    let extra = try await RawClient.connect(port: port)
    let answer = String(decoding: try await extra.readToEnd(), as: UTF8.self)
    extra.close()
    XCTAssertTrue(answer.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"), answer)
    XCTAssertEqual(server.stats.refused, 1)
    XCTAssertEqual(server.openConnections, 32, "the held ones are still served")
    for client in held { client.close() }
    try await waitUntil { self.server.openConnections == 0 }
    try await assertAPageWorks()
  }

  // MARK: Helpers

  /// The page, its script, a WebSocket with the history and an answer to a request.
  private func assertAPageWorks(file: StaticString = #filePath, line: UInt = #line) async throws {
    let page = try await LoopbackHTTP.get(port: port, "/?token=\(token)")
    XCTAssertEqual(page.status, 200, file: file, line: line)
    let script = try await LoopbackHTTP.get(port: port, "/app.js?token=\(token)")
    XCTAssertEqual(script.status, 200, file: file, line: line)
    let connection = try await PageConnection(port: Int(port), token: token)
    defer { connection.close() }
    let history = try await connection.next()
    XCTAssertEqual(history["type"] as? String, "history", file: file, line: line)
    try await connection.send(#"{"type": "export", "request": 3}"#)
    let answer = try await connection.next()
    XCTAssertEqual(answer["type"] as? String, "result", file: file, line: line)
    XCTAssertEqual(answer["error"] as? String, "this inspector only shows: no store is attached to it", file: file, line: line)
  }

  /// Closes `client` and waits until the server is done with every connection (its counts are
  /// then final).
  private func served(_ client: RawClient) async throws {
    client.close()
    try await waitUntil { self.server.openConnections == 0 }
  }

  private func waitUntil(_ condition: @escaping () -> Bool, timeout: Duration = .seconds(5)) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
      guard ContinuousClock.now < deadline else { return XCTFail("not within \(timeout)") }
      try await Task.sleep(for: .milliseconds(10))
    }
  }

  /// The process's resident memory, in bytes (/proc/self/statm).
  static func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
}

/// A client on a plain TCP socket that writes whatever bytes a test gives it (a head, frames, a
/// frame's header alone) and reads what the server sends, each blocking call on a thread of its
/// own (never on the concurrency pool, which the server's forwarding tasks need).
final class RawClient: @unchecked Sendable {
  let fd: Int32
  private let reader: SocketReader
  private let port: UInt16

  private init(fd: Int32, port: UInt16) {
    self.fd = fd
    self.port = port
    reader = SocketReader(fd: fd)
  }

  struct Failure: Error, CustomStringConvertible { var description: String }

  static func connect(port: UInt16) async throws -> RawClient {
    try await onThread { RawClient(fd: try LoopbackHTTP.connectedSocket(port: port), port: port) }
  }

  private let closing = NSLock()
  private var closed = false

  private let writers = DispatchGroup()

  /// Closes the socket (once: a second call does nothing), after the writes in the background
  /// ended (they fail once it is shut down): a write after the close could land in another
  /// test's socket that got the same number.
  func close() {
    closing.withLock {
      if !closed {
        shutdown(fd, Int32(SHUT_RDWR))
        writers.wait()
        Glibc.close(fd)
      }
      closed = true
    }
  }

  /// The opening handshake of the inspector's page (its Origin), answered 101.
  func openWebSocket(token: String) async throws {
    let request = "GET /ws?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:\(port)\r\n\r\n"
    try await send(Array(request.utf8))
    let head = try await onThread { [self] in
      guard let head = reader.readHead() else { throw Failure(description: "no answer to the handshake") }
      return String(decoding: head, as: UTF8.self)
    }
    guard head.hasPrefix("HTTP/1.1 101 ") else { throw Failure(description: "not switched: \(head)") }
  }

  func send(_ bytes: [UInt8]) async throws {
    let fd = self.fd
    try await onThread {
      guard SocketIO.write(fd, bytes) else { throw Failure(description: "send failed: \(errno)") }
    }
  }

  /// Writes `bytes` on a thread of its own (a byte at a time with `pause`), ignoring failures.
  func sendInBackground(_ bytes: [UInt8], pause: Duration? = nil) {
    let fd = self.fd
    let writers = self.writers
    writers.enter()
    Thread {
      defer { writers.leave() }
      if let pause {
        for byte in bytes {
          guard SocketIO.write(fd, [byte]) else { return }
          Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18 + Double(pause.components.seconds))
        }
      } else {
        _ = SocketIO.write(fd, bytes)
      }
    }.start()
  }

  /// A frame as a client sends it (masked).
  static func maskedFrame(fin: Bool, opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
    WebSocketFrame(fin: fin, WebSocketFrame.Opcode(rawValue: opcode)!, payload).encoded(maskingKey: [9, 8, 7, 6])
  }

  /// The next server frame (unmasked, as a server must send them).
  private func frame() async throws -> WebSocketFrame {
    try await onThread { [self] in
      do {
        return try WebSocketFrame.read(from: reader, maxPayload: 64 << 20, sender: .server)
      } catch {
        throw Failure(description: "no frame: \(error)")
      }
    }
  }

  /// The code of the server's close frame, skipping the messages before it.
  func closeCode() async throws -> UInt16? {
    while true {
      let frame = try await frame()
      guard frame.opcode == .close else { continue }
      return frame.payload.count >= 2 ? UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]) : nil
    }
  }

  /// The next text message (whole frames only: the inspector sends no fragments).
  func textMessage() async throws -> String {
    while true {
      let frame = try await frame()
      if frame.opcode == .text { return String(decoding: frame.payload, as: UTF8.self) }
      if frame.opcode == .close { throw Failure(description: "closed instead of a message") }
    }
  }

  /// Whether the stream ends now (nothing more after what was read).
  func atEnd() async throws -> Bool {
    try await onThread { [self] in reader.read(1) == nil }
  }

  /// Everything until the server closes (a reset counts as the end).
  func readToEnd() async throws -> [UInt8] {
    try await onThread { [self] in
      var bytes: [UInt8] = []
      while let byte = reader.read(1) { bytes += byte }
      return bytes
    }
  }
}

/// `body` on a new thread, awaited.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}

/// A page that stops reading: the server's writes to it time out, and it is dropped with its
/// subscription (its messages do not pile up for ever).
@MainActor
final class InspectorSlowPageTests: XCTestCase {
  func testAPageThatStopsReadingIsDroppedAfterTheSendTimeout() async throws {
    var limits = InspectorLimits.standard
    limits.sendTimeout = 0.5
    let server = try await InspectorServer.start(limits: limits)
    defer { Task { await server.stop() } }
    let hub = server.hub
    // Each entry carries the whole state: 256 KiB a message.
    let repl = try await ReplSession(feature: """
      local relua = require "relua"
      return relua.feature "Big" {
        state = { count = 0, blob = string.rep("x", 262144) },
        actions = { increment = {} },
        reduce = relua.on { increment = function(s) s.count = s.count + 1 end },
      }
      """) { hub.record($0) }
    defer { repl.close() }
    let client = try await RawClient.connect(port: server.port)
    defer { client.close() }
    try await client.openWebSocket(token: server.token.hex)
    let connected = ContinuousClock.now + .seconds(5)
    while hub.clientCount != 1, ContinuousClock.now < connected { try await Task.sleep(for: .milliseconds(10)) }
    XCTAssertEqual(hub.clientCount, 1)
    // 40 entries, 10 MiB, never read: more than the sockets' buffers hold.
    for _ in 0..<40 { await repl.type(":increment") }
    let deadline = ContinuousClock.now + .seconds(10)
    while hub.clientCount > 0 || server.openConnections > 0 {
      guard ContinuousClock.now < deadline else {
        return XCTFail("the page is still served (\(hub.clientCount) subscribed, \(server.openConnections) connections)")
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    // A page that reads is served as before.
    let page = try await PageConnection(port: Int(server.port), token: server.token.hex)
    defer { page.close() }
    let history = try await page.next()
    XCTAssertEqual((history["state"] as? [String: Any])?["count"] as? Int, 40)
  }
}
