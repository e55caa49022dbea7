import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Blocking POSIX socket reads and writes shared by the client and the loopback servers
/// (`WebSocketEcho`, the inspector): a buffered reader (the handshake's head may arrive with the
/// first frame) and a write that sends everything or fails. Writes never raise SIGPIPE.
///
/// A server gives reads a `deadline` (a silent or slow peer must not hold its thread forever) and
/// keeps its buffer bounded: a head has a limit, a frame's payload is refused by its declared
/// length before it is read (`WebSocketFrame.read`). `peakBuffered` tells how far it went.
package final class SocketReader {
  package let fd: Int32
  private var buffer: [UInt8] = []
  /// When set, a read that gets no bytes by then fails as the end of the stream would
  /// (`timedOut` tells which); nil: reads wait as long as the peer is silent.
  package var deadline: ContinuousClock.Instant?
  /// Whether a read failed because `deadline` passed.
  package private(set) var timedOut = false
  /// The most bytes this reader ever held at once (received, not yet taken).
  package private(set) var peakBuffered = 0
  /// Every byte received so far.
  package private(set) var bytesReceived = 0

  package init(fd: Int32) { self.fd = fd }

  package enum HeadFailure: Error, Equatable {
    /// The stream ended (or the deadline passed) before a blank line.
    case ended
    /// More than the limit came without a blank line.
    case tooLarge
  }

  /// The bytes up to and including the first blank line (an HTTP head), or nil at the end of the
  /// stream or past `limit` bytes.
  package func readHead(limit: Int = 16_384) -> [UInt8]? {
    try? head(limit: limit)
  }

  /// The bytes up to and including the first blank line (an HTTP head), which must be at most
  /// `limit` bytes (the reader holds at most `limit` and one read's chunk, 16 KiB, meanwhile).
  package func head(limit: Int = 16_384) throws(HeadFailure) -> [UInt8] {
    var searched = 0
    while true {
      // Only what came since the last look (a blank line may straddle the two).
      if let end = buffer[max(0, searched - 3)...].firstRange(of: [13, 10, 13, 10]) {
        guard end.upperBound <= limit else { throw .tooLarge }
        let head = Array(buffer[..<end.upperBound])
        buffer.removeFirst(end.upperBound)
        return head
      }
      searched = buffer.count
      if buffer.count > limit { throw .tooLarge }
      if !fill() { throw .ended }
    }
  }

  /// Exactly `count` bytes, or nil if the stream ends first.
  package func read(_ count: Int) -> [UInt8]? {
    while buffer.count < count {
      if !fill() { return nil }
    }
    let bytes = Array(buffer[..<count])
    buffer.removeFirst(count)
    return bytes
  }

  /// Waits for at least one byte (without taking it): false if the stream ends first.
  package func waitForBytes() -> Bool {
    buffer.isEmpty ? fill() : true
  }

  /// Reads and throws away what the peer still sends, at most `limit` bytes and until `deadline`:
  /// a server that refused a request drains it briefly before closing, so that the closing does
  /// not reset the connection before the peer read the refusal.
  package func discard(limit: Int, until deadline: ContinuousClock.Instant) {
    buffer.removeAll()
    self.deadline = deadline
    var discarded = 0
    while discarded < limit, fill() {
      discarded += buffer.count
      buffer.removeAll()
    }
  }

  private func fill() -> Bool {
    if let deadline, !wait(until: deadline) {
      timedOut = true
      return false
    }
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        buffer += chunk[..<count]
        bytesReceived += count
        peakBuffered = max(peakBuffered, buffer.count)
        return true
      }
      if count < 0 && errno == EINTR { continue }
      if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { timedOut = true }  // SO_RCVTIMEO
      return false
    }
  }

  /// Whether bytes (or the end of the stream) can be read before `deadline`.
  private func wait(until deadline: ContinuousClock.Instant) -> Bool {
    while true {
      let remaining = ContinuousClock.now.duration(to: deadline)
      guard remaining > .zero else { return false }
      let (seconds, attoseconds) = remaining.components
      let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
      var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&entry, 1, milliseconds)
      if ready > 0 { return true }
      if ready < 0 && errno != EINTR { return true }  // let recv say what is wrong
    }
  }
}

package enum SocketIO {
  /// Sends all of `bytes`; false if the connection is gone (or a send timeout, `SO_SNDTIMEO`,
  /// passed: the peer does not read).
  package static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return false }
      sent += count
    }
    return true
  }

  /// Sends what the socket takes now without waiting: the count sent (0 if it would wait), or
  /// -1 if the connection is gone.
  package static func writeWithoutWaiting(_ fd: Int32, _ bytes: [UInt8]) -> Int {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
      if count < 0 && errno == EINTR { continue }
      if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return sent }
      if count <= 0 { return -1 }
      sent += count
    }
    return sent
  }

  /// Gives the socket's sends a timeout: a send that cannot go on for `seconds` fails.
  package static func setSendTimeout(_ fd: Int32, seconds: Double) {
    var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  /// The text of `errno`, as the C library says it, lowercased ("connection refused").
  package static func errorText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code)).lowercased()
  }

  /// An HTTP head's status line and headers (names lowercased).
  package static func parseHead(_ head: [UInt8]) -> (firstLine: String, headers: [String: String]) {
    let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
    var headers: [String: String] = [:]
    for line in lines.dropFirst() where !line.isEmpty {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return (lines.first ?? "", headers)
  }

  /// `Sec-WebSocket-Accept` for a `Sec-WebSocket-Key` (RFC 6455 §4.2.2).
  package static func acceptValue(forKey key: String) -> String {
    Data(SHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
  }
}
