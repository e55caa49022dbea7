import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Blocking POSIX socket reads and writes shared by the client and the loopback echo server
/// (`WebSocketEcho`): a buffered reader (the handshake's head may arrive with the first frame)
/// and a write that sends everything or fails. Writes never raise SIGPIPE.
package final class SocketReader {
  package let fd: Int32
  private var buffer: [UInt8] = []

  package init(fd: Int32) { self.fd = fd }

  /// The bytes up to and including the first blank line (an HTTP head), or nil at the end of the
  /// stream or past `limit` bytes.
  package func readHead(limit: Int = 16_384) -> [UInt8]? {
    while true {
      if let end = buffer.firstRange(of: [13, 10, 13, 10]) {
        let head = Array(buffer[..<end.upperBound])
        buffer.removeFirst(end.upperBound)
        return head
      }
      if buffer.count > limit || !fill() { return nil }
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

  private func fill() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        buffer += chunk[..<count]
        return true
      }
      if count < 0 && errno == EINTR { continue }
      return false
    }
  }
}

package enum SocketIO {
  /// Sends all of `bytes`; false if the connection is gone.
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
