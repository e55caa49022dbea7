import Foundation
import LoopbackListener
import WebSocket
#if canImport(Glibc)
import Glibc
#endif

/// A WebSocket echo server on 127.0.0.1, for tests and offline demos (`relua websocket-echo`):
/// every text or binary message comes back as it was sent. Written on POSIX sockets, as
/// `FakeGitHubServer` is (no SwiftNIO).
///
/// The path chooses how a connection ends, for tests of a client's failures:
/// - `/drop`: after echoing the first message the server drops the connection (no close frame);
/// - `/close`: after echoing the first message it closes properly (close frame 1000);
/// - anything else: it echoes until the client closes.
public final class WebSocketEchoServer: @unchecked Sendable {  // its mutable state is under `lock`
  private let lock = NSLock()
  private let listener = LoopbackListener()
  private var open = 0
  private var served = 0
  public private(set) var port: UInt16 = 0

  public init() {}

  /// `ws://127.0.0.1:<port>/`.
  public var url: String { "ws://127.0.0.1:\(port)/" }

  /// Connections open right now (a client that closed is no longer counted).
  public var openConnections: Int { lock.withLock { open } }
  /// Connections that completed the handshake since the start.
  public var connectionsServed: Int { lock.withLock { served } }

  /// Starts listening (port 0: the system picks one) and returns the port.
  @discardableResult
  public func start(port requested: UInt16 = 0) throws -> UInt16 {
    do {
      port = try listener.start(port: requested) { [self] client in serve(client) }
    } catch {
      throw WebSocketError(error.description, url: "ws://127.0.0.1:\(requested)/")
    }
    return port
  }

  public func stop() { listener.stop() }

  deinit { stop() }

  // MARK: One per process

  private static let sharedLock = NSLock()
  nonisolated(unsafe) private static var sharedServer: WebSocketEchoServer?  // under `sharedLock`

  /// The process's echo server, started on first use on a port the system picks (an ephemeral
  /// port on 127.0.0.1: two processes, two CI runs or two people's test runs on one machine never
  /// share or fight over one) and stopped when the process exits. What `relua test` gives test
  /// files as `relua.testing.websocketEcho()`. A start that failed is tried again on the next call.
  public static func shared() throws -> WebSocketEchoServer {
    try sharedLock.withLock {
      if let server = sharedServer { return server }
      let server = WebSocketEchoServer()
      try server.start(port: 0)
      if !stopsAtExit {
        stopsAtExit = true
        atexit { WebSocketEchoServer.stopShared() }
      }
      sharedServer = server
      return server
    }
  }

  nonisolated(unsafe) private static var stopsAtExit = false  // under `sharedLock`

  /// Stops the process's echo server, if one started (at exit; the next `shared()` starts another).
  public static func stopShared() {
    let server = sharedLock.withLock { () -> WebSocketEchoServer? in
      defer { sharedServer = nil }
      return sharedServer
    }
    server?.stop()
  }

  private func serve(_ client: Int32) {
    defer { close(client) }
    let reader = SocketReader(fd: client)
    guard let head = reader.readHead() else { return }
    let (requestLine, headers) = SocketIO.parseHead(head)
    guard let key = headers["sec-websocket-key"], headers["upgrade"]?.lowercased() == "websocket" else {
      _ = SocketIO.write(client, Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
      return
    }
    let path = requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
    let response = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Accept: \(SocketIO.acceptValue(forKey: key))\r\n\r\n"
    guard SocketIO.write(client, Array(response.utf8)) else { return }
    lock.withLock {
      open += 1
      served += 1
    }
    defer { lock.withLock { open -= 1 } }
    let messages = WebSocketMessageReader(reader) { frame in _ = SocketIO.write(client, frame.encoded()) }
    while case .message(let message)? = try? messages.next() {
      let frame: WebSocketFrame
      switch message {
      case .text(let text): frame = WebSocketFrame(.text, Array(text.utf8))
      case .binary(let bytes): frame = WebSocketFrame(.binary, bytes)
      }
      guard SocketIO.write(client, frame.encoded()) else { return }
      switch path {
      case "/drop":
        return
      case "/close":
        _ = SocketIO.write(client, WebSocketFrame(.close, [0x03, 0xE8]).encoded())
        _ = try? messages.next()  // the client's close frame
        return
      default:
        continue
      }
    }
    // The client closed (or the connection failed): answer a close frame, as RFC 6455 asks.
    _ = SocketIO.write(client, WebSocketFrame(.close, [0x03, 0xE8]).encoded())
  }
}
