import Foundation
import WebSocket
#if canImport(Glibc)
import Glibc
#endif

/// One connection to a loopback server (the inspector, `relua app`), served on its own thread
/// (`serve` blocks until it ends and closes the socket): an HTTP request — the page's files, 403, 404, 405 — or a WebSocket.
///
/// A page's WebSocket gets the hub's messages (the history, then live entries), written by a
/// queue of its own; its text messages are answered one at a time, in order, on the main actor
/// (`answer`: the inspector's `InspectorControl.answer`, the app's session), the connection's thread waiting for each answer before
/// it reads the next message (a page that floods requests is read no faster than they run).
/// Frames must be masked (a client's) and a message at most `limits.maxMessage` bytes by its
/// declared length: a bigger one closes the connection with 1009 before its payload is read.
package struct LoopbackWebConnection: Sendable {
  package let access: LoopbackAccess
  package let page: LoopbackPage
  /// A new page's messages and the way to answer it in their order (one call per WebSocket: the
  /// inspector's `InspectorHub.subscribe`, `relua app`'s feed).
  package let subscribe: @Sendable () -> (messages: AsyncStream<String>, reply: @Sendable (String) -> Void)
  package let limits: LoopbackWebLimits
  package let stats: LoopbackWebConnectionStats
  /// A page's text message → the `result` to send back; on the main actor.
  package let answer: @MainActor @Sendable (String) -> String

  /// A connection whose pages are fed by `subscribe` (one call per WebSocket).
  package init(
    access: LoopbackAccess, page: LoopbackPage,
    subscribe: @escaping @Sendable () -> (messages: AsyncStream<String>, reply: @Sendable (String) -> Void),
    limits: LoopbackWebLimits, stats: LoopbackWebConnectionStats, answer: @escaping @MainActor @Sendable (String) -> String
  ) {
    self.access = access
    self.page = page
    self.subscribe = subscribe
    self.limits = limits
    self.stats = stats
    self.answer = answer
  }

  /// Serves the connection `fd` until it ends, then closes it. Blocks (never call it on the main
  /// thread: a page's request waits for the main actor).
  package func serve(_ fd: Int32) {
    defer { close(fd) }
    SocketIO.setSendTimeout(fd, seconds: limits.sendTimeout)
    let reader = SocketReader(fd: fd)
    defer { stats.buffered(reader.peakBuffered) }
    reader.deadline = .now + limits.headTimeout
    let head: [UInt8]
    do {
      head = try reader.head(limit: limits.maxHead)
    } catch {
      stats.buffered(reader.peakBuffered)
      if error == .tooLarge { respond(.text(431, "a request's head is at most \(limits.maxHead) bytes"), fd, reader) }
      return  // ended, or silent past the timeout: nothing to answer
    }
    stats.headRead()
    guard let request = LoopbackHTTPRequest(head: head) else {
      return respond(.text(400, "not an HTTP/1.1 request head"), fd, reader)
    }
    switch route(request) {
    case .response(let response): respond(response, fd, reader)
    case .webSocket(let key): webSocket(fd, reader, key: key)
    }
  }

  enum Route {
    case response(LoopbackHTTPResponse)
    case webSocket(key: String)
  }

  /// Every route, behind the access check (the token first, so that nothing, not even a 404,
  /// answers without it).
  func route(_ request: LoopbackHTTPRequest) -> Route {
    if let refusal = access.refusal(of: request) { return .response(LoopbackAccess.forbidden(refusal)) }
    guard request.method == "GET" else { return .response(.text(405, nil, headers: [("Allow", "GET")])) }
    if request.path == "/ws" {
      if let refusal = access.refusal(ofWebSocket: request) { return .response(LoopbackAccess.forbidden(refusal)) }
      let tokens = { (name: String) in
        Set((request.header(name) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
      }
      guard tokens("Upgrade").contains("websocket"), tokens("Connection").contains("upgrade"),
        let key = request.header("Sec-WebSocket-Key"), Data(base64Encoded: key)?.count == 16
      else { return .response(.text(400, "a WebSocket handshake needs Upgrade, Connection and a Sec-WebSocket-Key")) }
      guard request.header("Sec-WebSocket-Version") == "13" else {
        return .response(.text(426, "WebSocket version 13 only", headers: [("Sec-WebSocket-Version", "13")]))
      }
      return .webSocket(key: key)
    }
    if let origin = access.origin, let response = page.response(for: request.path, origin: origin) { return .response(response) }
    return .response(.text(404))
  }

  /// Writes `response`, then closes the connection gracefully: the sending side first, then a
  /// brief drain of what the client still sends (at most 64 KiB, half a second), so that the
  /// close does not reset the connection before the client read the response.
  private func respond(_ response: LoopbackHTTPResponse, _ fd: Int32, _ reader: SocketReader) {
    guard SocketIO.write(fd, response.encoded) else { return }
    lingeringClose(fd, reader)
  }

  private func lingeringClose(_ fd: Int32, _ reader: SocketReader) {
    shutdown(fd, Int32(SHUT_WR))
    reader.discard(limit: 64 << 10, until: .now + .milliseconds(500))
  }

  // MARK: WebSocket

  private func webSocket(_ fd: Int32, _ reader: SocketReader, key: String) {
    let switching = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Accept: \(SocketIO.acceptValue(forKey: key))\r\n\r\n"
    guard SocketIO.write(fd, Array(switching.utf8)) else { return }
    let outgoing = OutgoingFrames(fd: fd)
    let (messages, reply) = subscribe()
    // The hub's messages, in order; the hub closed (the server stops): a close frame, and the
    // socket shut down so that the reading below ends.
    let forwarding = Task {
      for await message in messages { outgoing.send(WebSocketFrame(.text, Array(message.utf8))) }
      if !Task.isCancelled { outgoing.end(code: 1001) }
    }
    let frames = WebSocketMessageReader(
      reader, maxMessage: limits.maxMessage, sender: .client, frameTimeout: limits.frameTimeout
    ) { pong in outgoing.send(pong) }
    var code: UInt16?
    reading: while true {
      do throws(WebSocketFrame.ReadError) {
        switch try frames.next() {
        case .message(.text(let text)):
          stats.message(text.utf8.count)
          let answer = answerOnMainActor(text)
          if !answer.isEmpty { reply(answer) }  // (an empty answer: nothing to say back)
        case .message(.binary):
          continue  // the page sends text only
        case .closed:
          code = 1000
          break reading
        }
      } catch {
        switch error {
        case .ended: code = nil  // gone, silent mid-frame, or shut down by `end`
        case .protocolError(let why): code = why.contains("UTF-8") ? 1007 : 1002
        case .tooLarge: code = 1009
        }
        break reading
      }
    }
    stats.buffered(reader.peakBuffered)
    // The close frame first (nothing is written after it), then the subscription ends with its
    // consumer.
    let sentClose = outgoing.finish(code: code)
    forwarding.cancel()
    if sentClose, let code {
      stats.closed(code)
      lingeringClose(fd, reader)
    }
  }

  /// `answer(text)` on the main actor, waited for on this thread.
  private func answerOnMainActor(_ text: String) -> String {
    let result = AnswerBox()
    let answered = DispatchSemaphore(value: 0)
    let answer = self.answer
    Task { @MainActor in
      result.set(answer(text))
      answered.signal()
    }
    answered.wait()
    return result.value
  }
}

private final class AnswerBox: @unchecked Sendable {  // `stored` is under `lock`
  private let lock = NSLock()
  private var stored = ""
  var value: String { lock.withLock { stored } }
  func set(_ value: String) { lock.withLock { stored = value } }
}

/// A WebSocket's writes, on a serial queue of their own (a slow page blocks that queue, never the
/// hub or the main actor): server frames, unmasked. Once it ended (a write failed, the hub
/// closed, the connection's thread finished), nothing more touches the socket, which the
/// connection's thread closes after `finish`.
private final class OutgoingFrames: @unchecked Sendable {  // `ended` is used on `queue` only
  private let fd: Int32
  private let queue = DispatchQueue(label: "loopbackweb.writes")
  private var ended = false

  init(fd: Int32) { self.fd = fd }

  func send(_ frame: WebSocketFrame) {
    let bytes = frame.encoded()
    queue.async { [self] in
      guard !ended else { return }
      if !SocketIO.write(fd, bytes) { endNow(code: nil) }
    }
  }

  /// Sends a close frame with `code` and shuts the socket down (the reading thread then ends).
  func end(code: UInt16) {
    queue.async { [self] in
      guard !ended else { return }
      endNow(code: code)
    }
  }

  /// From the connection's thread when it stops reading: sends a close frame with `code` (if
  /// any, and if it had not ended), after the frames queued before. Returns whether it sent one.
  func finish(code: UInt16?) -> Bool {
    queue.sync {
      guard !ended else { return false }
      ended = true
      guard let code else { return false }
      return SocketIO.write(fd, WebSocketFrame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)]).encoded())
    }
  }

  private func endNow(code: UInt16?) {
    ended = true
    if let code { _ = SocketIO.write(fd, WebSocketFrame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)]).encoded()) }
    shutdown(fd, Int32(SHUT_RDWR))
  }
}
