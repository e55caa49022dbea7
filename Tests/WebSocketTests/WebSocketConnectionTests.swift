import WebSocket
import WebSocketEcho
import XCTest

/// The POSIX WebSocket client against the loopback echo server.
final class WebSocketConnectionTests: XCTestCase {
  func testEchoesTextAndBinaryAndClosesCleanly() async throws {
    let server = WebSocketEchoServer()
    try server.start()
    defer { server.stop() }
    let connection = try await WebSocketConnection.connect(to: server.url)
    var messages = connection.messages.makeAsyncIterator()
    try await connection.send(.text("Hello, héllo 👋"))
    let echoed = try await messages.next()
    XCTAssertEqual(echoed, .text("Hello, héllo 👋"))
    let big = (0..<70_000).map { UInt8(truncatingIfNeeded: $0) }  // a 64-bit length
    try await connection.send(.binary(big))
    let echoedBytes = try await messages.next()
    XCTAssertEqual(echoedBytes, .binary(big))
    XCTAssertEqual(server.openConnections, 1)
    connection.close()
    let ended = try await messages.next()
    XCTAssertNil(ended)
    try await waitUntil { server.openConnections == 0 }
    do {
      try await connection.send(.text("after"))
      XCTFail("a send after close should fail")
    } catch let error as WebSocketError {
      XCTAssertEqual(error.description, "WebSocket: the connection is closed (\(server.url))")
    }
  }

  func testRefusedConnectionSaysSo() async {
    do {
      _ = try await WebSocketConnection.connect(to: "ws://127.0.0.1:1/")
      XCTFail("expected a refusal")
    } catch {
      XCTAssertEqual("\(error)", "WebSocket: connection refused (ws://127.0.0.1:1/)")
    }
  }

  func testUnsupportedURLs() async {
    for (url, message) in [
      ("wss://example.com/", "WebSocket: wss:// (TLS) is not supported: use ws:// (wss://example.com/)"),
      ("http://example.com/", "WebSocket: expected a ws:// URL (http://example.com/)"),
    ] {
      do {
        _ = try await WebSocketConnection.connect(to: url)
        XCTFail("expected a failure for \(url)")
      } catch {
        XCTAssertEqual("\(error)", message)
      }
    }
  }

  func testDroppedConnectionFailsTheStreamAndAProperCloseEndsIt() async throws {
    let server = WebSocketEchoServer()
    try server.start()
    defer { server.stop() }
    let dropped = try await WebSocketConnection.connect(to: server.url + "drop")
    var messages = dropped.messages.makeAsyncIterator()
    try await dropped.send(.text("one"))
    let first = try await messages.next()
    XCTAssertEqual(first, .text("one"))
    do {
      _ = try await messages.next()
      XCTFail("expected the connection to be lost")
    } catch {
      XCTAssertEqual("\(error)", "WebSocket: the connection was lost (\(server.url)drop)")
    }
    let closing = try await WebSocketConnection.connect(to: server.url + "close")
    var closingMessages = closing.messages.makeAsyncIterator()
    try await closing.send(.text("one"))
    let firstEcho = try await closingMessages.next()
    XCTAssertEqual(firstEcho, .text("one"))
    let afterClose = try await closingMessages.next()
    XCTAssertNil(afterClose)
  }

  func testCancellingTheTaskThatWaitsForAMessageClosesTheConnection() async throws {
    let server = WebSocketEchoServer()
    try server.start()
    defer { server.stop() }
    let connection = try await WebSocketConnection.connect(to: server.url)
    let waiting = Task {
      for try await _ in connection.messages {}
    }
    try await waitUntil { server.openConnections == 1 }
    waiting.cancel()
    try await waitUntil { server.openConnections == 0 }
    XCTAssertTrue(connection.isClosed)
  }

  /// Port 0: the system picks a free port, which the server reports (`port`, `url`) and serves on;
  /// two servers get two ports, none of them the demo's fixed one.
  func testPortZeroListensOnAnEphemeralPortItReports() async throws {
    let first = WebSocketEchoServer(), second = WebSocketEchoServer()
    let port = try first.start(port: 0)
    defer { first.stop() }
    try second.start()
    defer { second.stop() }
    XCTAssertNotEqual(port, 0)
    XCTAssertEqual(first.port, port)
    XCTAssertEqual(first.url, "ws://127.0.0.1:\(port)/")
    XCTAssertNotEqual(second.port, port)
    XCTAssertNotEqual(port, 8766)
    for server in [first, second] {
      let connection = try await WebSocketConnection.connect(to: server.url)
      var messages = connection.messages.makeAsyncIterator()
      try await connection.send(.text("to \(server.port)"))
      let echoed = try await messages.next()
      XCTAssertEqual(echoed, .text("to \(server.port)"))
      connection.close()
    }
  }

  /// `shared()`: one server per process, started on first use on an ephemeral port (what
  /// `relua.testing.websocketEcho()` gives Lua tests); after `stopShared()` the next use starts another.
  func testTheSharedServerIsOnePerProcessOnAnEphemeralPort() async throws {
    let shared = try WebSocketEchoServer.shared()
    XCTAssertTrue(try WebSocketEchoServer.shared() === shared)
    XCTAssertNotEqual(shared.port, 0)
    let connection = try await WebSocketConnection.connect(to: shared.url + "close")
    var messages = connection.messages.makeAsyncIterator()
    try await connection.send(.text("shared"))
    let echoed = try await messages.next()
    XCTAssertEqual(echoed, .text("shared"))
    let closed = try await messages.next()
    XCTAssertNil(closed)
    let url = shared.url
    WebSocketEchoServer.stopShared()
    do {
      _ = try await WebSocketConnection.connect(to: url)
      XCTFail("the stopped server should refuse")
    } catch {
      XCTAssertEqual("\(error)", "WebSocket: connection refused (\(url))")
    }
    let next = try WebSocketEchoServer.shared()
    XCTAssertFalse(next === shared)
    XCTAssertNotEqual(next.port, 0)
  }

  func testSHA1AcceptValueOfRFC6455Example() {
    XCTAssertEqual(SocketIO.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
  }

  private func waitUntil(_ condition: @escaping () -> Bool) async throws {
    for _ in 0..<200 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    XCTAssertTrue(condition())
  }
}

/// Frames from a peer that break the rules end the read with a protocol error, never a crash.
final class WebSocketMessageReaderTests: XCTestCase {
  override func setUp() {
    signal(SIGPIPE, SIG_IGN)  // the writer may outlive the reader, which stops at the bad frame
  }

  /// A reader over `bytes` (written to one end of a socket pair, then closed).
  private func reader(_ bytes: [UInt8]) -> (SocketReader, Int32) {
    var ends: [Int32] = [-1, -1]
    XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends), 0)
    let writeEnd = ends[1]
    DispatchQueue.global().async {
      var offset = 0
      while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
        if written <= 0 { break }
        offset += written
      }
      close(writeEnd)
    }
    return (SocketReader(fd: ends[0]), ends[0])
  }

  func testFragmentsPastTheMessageLimitAreRefused() throws {
    let chunk = [UInt8](repeating: 0x61, count: 8 << 20)
    var bytes = WebSocketFrame(fin: false, .text, chunk).encoded()
    for _ in 0..<2 { bytes += WebSocketFrame(fin: false, .continuation, chunk).encoded() }
    let (socket, fd) = reader(bytes)
    defer { close(fd) }
    XCTAssertThrowsError(try WebSocketMessageReader(socket, reply: { _ in }).next()) { error in
      XCTAssertEqual(error as? WebSocketFrame.ReadError, .tooLarge("a message of more than 16777216 bytes in fragments"))
    }
  }

  func testAContinuationWithoutAMessageAndAnUnknownOpcodeAreRefused() throws {
    for (bytes, why) in [
      (WebSocketFrame(.continuation, [1]).encoded(), "a continuation frame without a message"),
      ([0x83, 0x00], "unknown opcode 3"),
    ] {
      let (socket, fd) = reader(bytes)
      defer { close(fd) }
      XCTAssertThrowsError(try WebSocketMessageReader(socket, reply: { _ in }).next()) { error in
        XCTAssertEqual(error as? WebSocketFrame.ReadError, .protocolError(why))
      }
    }
  }
}
