import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A WebSocket client connection (RFC 6455) over a plain TCP socket: `ws://` URLs only (no TLS).
/// Written on POSIX sockets, as the loopback servers of the tests are: URLSession's
/// `URLSessionWebSocketTask` fails on Linux (its libcurl has no WebSocket support), and the
/// SwiftNIO clients cost minutes of CI build time (docs/DESIGN-NOTES.md).
///
/// `connect` opens it (the handshake done); `messages` delivers what the server sends until it
/// closes (the stream ends) or the connection fails (the stream throws a `WebSocketError`);
/// `send` sends a message; `close` ends it (the stream ends, sends fail). A thread per
/// connection reads; pings are answered.
public final class WebSocketConnection: @unchecked Sendable {  // its mutable state is under `lock`
  public let url: String
  /// Every message the server sends, in order. One consumer.
  public let messages: AsyncThrowingStream<WebSocketMessage, any Error>

  private let fd: Int32
  private let reader: SocketReader
  private let continuation: AsyncThrowingStream<WebSocketMessage, any Error>.Continuation
  private let lock = NSLock()
  private var isOpen = true
  private var closedLocally = false
  private var queuedWrites = 0
  private let writes = DispatchQueue(label: "relua.websocket.writes")

  private init(url: String, fd: Int32, reader: SocketReader) {
    self.url = url
    self.fd = fd
    self.reader = reader
    (messages, continuation) = AsyncThrowingStream.makeStream()
    // A task cancelled while it waits for a message ends the stream: the connection goes with it.
    continuation.onTermination = { [weak self] termination in
      if case .cancelled = termination { self?.close() }
    }
  }

  /// Connects to `url` (`ws://host[:port][/path]`) and completes the opening handshake.
  /// `origin`: the `Origin` header a browser page would send (servers that accept only their own
  /// page's, such as relua's inspector, look at it); none by default, as for any non-browser client.
  public static func connect(to url: String, origin: String? = nil) async throws -> WebSocketConnection {
    let target = try Target(url)
    let box = PendingSocket()
    let connection = try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<WebSocketConnection, any Error>) in
        Thread {
          continuation.resume(with: Result { try open(target, url: url, origin: origin, pending: box) })
        }.start()
      }
    } onCancel: {
      box.cancel()
    }
    connection.startReading()
    return connection
  }

  /// Sends a message; throws a `WebSocketError` if the connection is closed or fails. It runs on
  /// the caller's actor and writes at once what the socket takes without waiting (all of a small
  /// message, usually), so a caller that goes on after it does so before any answer can arrive;
  /// the rest is written on a queue of its own (never blocking the caller).
  public func send(_ message: WebSocketMessage, isolation: isolated (any Actor)? = #isolation) async throws {
    let frame: WebSocketFrame
    switch message {
    case .text(let text): frame = WebSocketFrame(.text, Array(text.utf8))
    case .binary(let bytes): frame = WebSocketFrame(.binary, bytes)
    }
    let bytes = frame.encoded(maskingKey: Self.maskingKey())
    enum Start { case done, closed, failed, rest([UInt8]) }
    let start = lock.withLock { () -> Start in
      guard isOpen, !closedLocally else { return .closed }
      if queuedWrites > 0 {  // after the writes before it
        queuedWrites += 1
        return .rest(bytes)
      }
      let written = SocketIO.writeWithoutWaiting(fd, bytes)
      if written < 0 { return .failed }
      if written == bytes.count { return .done }
      queuedWrites += 1
      return .rest(Array(bytes[written...]))
    }
    switch start {
    case .done: return
    case .closed: throw WebSocketError("the connection is closed", url: url)
    case .failed: throw WebSocketError("sending failed", url: url)
    case .rest(let rest):
      let sent = await withCheckedContinuation { continuation in
        writes.async {
          let sent = self.lock.withLock { () -> Bool in
            defer { self.queuedWrites -= 1 }
            return self.isOpen && SocketIO.write(self.fd, rest)
          }
          continuation.resume(returning: sent)
        }
      }
      guard sent else { throw WebSocketError(isClosed ? "the connection is closed" : "sending failed", url: url) }
    }
  }

  /// Closes the connection (a close frame, then the socket): `messages` ends without an error.
  /// Closing twice does nothing.
  public func close() {
    let wasOpen = lock.withLock { () -> Bool in
      defer { closedLocally = true }
      return isOpen && !closedLocally
    }
    guard wasOpen else { return }
    _ = write(WebSocketFrame(.close, [0x03, 0xE8]))  // 1000: normal closure
    lock.withLock {
      if isOpen { shutdown(fd, Int32(SHUT_RDWR)) }
    }
  }

  /// Whether the connection is closed (by either side, or by a failure).
  public var isClosed: Bool { lock.withLock { !isOpen || closedLocally } }

  deinit { close() }

  // MARK: Reading

  private func startReading() {
    let thread = Thread { [self] in readLoop() }
    thread.start()
  }

  private func readLoop() {
    let messageReader = WebSocketMessageReader(reader) { [self] frame in _ = write(frame) }
    var failure: WebSocketError?
    loop: while true {
      do {
        switch try messageReader.next() {
        case .message(let message):
          continuation.yield(message)
        case .closed:
          if !lock.withLock({ closedLocally }) { _ = write(WebSocketFrame(.close, [0x03, 0xE8])) }
          break loop
        }
      } catch {
        if !lock.withLock({ closedLocally }) {
          switch error {
          case .ended: failure = WebSocketError("the connection was lost", url: url)
          case .protocolError(let why): failure = WebSocketError("protocol error: \(why)", url: url)
          case .tooLarge(let why): failure = WebSocketError("message too big: \(why)", url: url)
          }
        }
        break loop
      }
    }
    lock.withLock {
      isOpen = false
      Glibc.close(fd)
    }
    continuation.finish(throwing: failure)
  }

  /// Writes a control frame (close, pong), waiting for the socket if it must.
  private func write(_ frame: WebSocketFrame) -> Bool {
    let bytes = frame.encoded(maskingKey: Self.maskingKey())
    return lock.withLock { isOpen && SocketIO.write(fd, bytes) }
  }

  private static func maskingKey() -> [UInt8] { (0..<4).map { _ in UInt8.random(in: 0...255) } }

  // MARK: Opening

  /// A URL's parts: `ws://host[:port][/path][?query]`.
  private struct Target {
    var host: String
    var port: UInt16
    var resource: String

    init(_ url: String) throws {
      guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
        throw WebSocketError("not a URL", url: url)
      }
      guard scheme == "ws" else {
        throw WebSocketError(scheme == "wss" ? "wss:// (TLS) is not supported: use ws://" : "expected a ws:// URL", url: url)
      }
      guard let host = components.host, !host.isEmpty else { throw WebSocketError("the URL has no host", url: url) }
      self.host = host
      self.port = UInt16(components.port ?? 80)
      let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
      resource = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }
  }

  /// The socket being opened, so a cancelled connect can shut it down.
  private final class PendingSocket: @unchecked Sendable {
    private let lock = NSLock()
    private var fd: Int32 = -1
    private var cancelled = false

    func set(_ fd: Int32) -> Bool {
      lock.withLock {
        self.fd = fd
        return !cancelled
      }
    }

    func cancel() {
      lock.withLock {
        cancelled = true
        if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
      }
    }

    var isCancelled: Bool { lock.withLock { cancelled } }
  }

  private static func open(_ target: Target, url: String, origin: String?, pending: PendingSocket) throws -> WebSocketConnection {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var found: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(target.host, String(target.port), &hints, &found) == 0, let first = found else {
      throw WebSocketError("cannot find the host '\(target.host)'", url: url)
    }
    defer { freeaddrinfo(found) }
    var lastError: Int32 = ECONNREFUSED
    var address: UnsafeMutablePointer<addrinfo>? = first
    while let entry = address {
      address = entry.pointee.ai_next
      let fd = socket(entry.pointee.ai_family, entry.pointee.ai_socktype, entry.pointee.ai_protocol)
      guard fd >= 0 else {
        lastError = errno
        continue
      }
      guard pending.set(fd) else {
        Glibc.close(fd)
        throw CancellationError()
      }
      if Glibc.connect(fd, entry.pointee.ai_addr, entry.pointee.ai_addrlen) == 0 {
        do {
          return try handshake(fd, target, url: url, origin: origin, pending: pending)
        } catch {
          Glibc.close(fd)
          throw error
        }
      }
      lastError = errno
      Glibc.close(fd)
      if pending.isCancelled { throw CancellationError() }
    }
    throw WebSocketError(SocketIO.errorText(lastError), url: url)
  }

  private static func handshake(_ fd: Int32, _ target: Target, url: String, origin: String?, pending: PendingSocket) throws -> WebSocketConnection {
    let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
    let hostHeader = target.host.contains(":") ? "[\(target.host)]" : target.host
    let request = "GET \(target.resource) HTTP/1.1\r\nHost: \(hostHeader):\(target.port)\r\nUpgrade: websocket\r\n"
      + "Connection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
      + (origin.map { "Origin: \($0)\r\n" } ?? "") + "\r\n"
    let reader = SocketReader(fd: fd)
    guard SocketIO.write(fd, Array(request.utf8)), let head = reader.readHead() else {
      if pending.isCancelled { throw CancellationError() }
      throw WebSocketError("the server closed the connection during the handshake", url: url)
    }
    let (statusLine, headers) = SocketIO.parseHead(head)
    let status = statusLine.split(separator: " ").dropFirst().first.map(String.init) ?? "?"
    guard status == "101" else {
      throw WebSocketError("the server answered HTTP \(status) instead of switching to WebSocket", url: url)
    }
    guard headers["sec-websocket-accept"] == SocketIO.acceptValue(forKey: key) else {
      throw WebSocketError("the server's handshake is invalid (Sec-WebSocket-Accept)", url: url)
    }
    return WebSocketConnection(url: url, fd: fd, reader: reader)
  }
}
