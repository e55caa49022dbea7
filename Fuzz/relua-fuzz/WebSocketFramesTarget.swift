import Foundation
import WebSocket

/// `websocket-frames`: bytes as what a WebSocket peer sends (RFC 6455 frames), read by the message
/// reader the client and the echo server share. It must end every input — with messages, a close,
/// a protocol error or the end of the stream — never trap, never loop, never hand back a message
/// past the limit or text that is not UTF-8. Every frame it answers (a ping's pong) must encode and
/// read back to itself, masked as a client sends it.
@MainActor
final class WebSocketFramesTarget: FuzzTarget {
  func run(_ input: UnsafeRawBufferPointer) {
    // A stream socket pair holds 64 KiB at least: more is cut (the reader sees the stream end).
    let bytes = Array(input.prefix(60_000))
    var replies: [WebSocketFrame] = []
    let events = Self.read(bytes) { replies.append($0) }
    for event in events {
      guard case .message(let message) = event else { continue }
      switch message {
      case .text(let text):
        if text.utf8.count > WebSocketMessageReader.maxMessage { invariantFailed("a text message past the limit") }
      case .binary(let data):
        if data.count > WebSocketMessageReader.maxMessage { invariantFailed("a binary message past the limit") }
      }
    }
    for reply in replies {
      let encoded = reply.encoded(maskingKey: [0x12, 0x34, 0x56, 0x78])
      guard let frame = Self.frames(encoded).first, frame == reply else {
        invariantFailed("a reply frame (\(reply.opcode), \(reply.payload.count) bytes) does not read back as itself")
      }
    }
  }

  /// The reader's events for `bytes` as a peer's stream, until it closes, fails or ends.
  private static func read(_ bytes: [UInt8], reply: @escaping (WebSocketFrame) -> Void) -> [WebSocketMessageReader.Event] {
    guard let fd = stream(bytes) else { return [] }
    defer { close(fd) }
    let reader = WebSocketMessageReader(SocketReader(fd: fd), reply: reply)
    var events: [WebSocketMessageReader.Event] = []
    // Each event consumes at least one frame of 2 bytes or more: more events than that is a loop.
    for _ in 0...(bytes.count / 2 + 1) {
      do {
        let event = try reader.next()
        events.append(event)
        if case .closed = event { return events }
      } catch {
        return events
      }
    }
    invariantFailed("the reader went on past the end of its input")
  }

  /// The frames in `bytes`, read one by one.
  private static func frames(_ bytes: [UInt8]) -> [WebSocketFrame] {
    guard let fd = stream(bytes) else { return [] }
    defer { close(fd) }
    let reader = SocketReader(fd: fd)
    var frames: [WebSocketFrame] = []
    while let frame = try? WebSocketFrame.read(from: reader) { frames.append(frame) }
    return frames
  }

  /// A socket that yields `bytes`, then the end of the stream.
  private static func stream(_ bytes: [UInt8]) -> Int32? {
    var ends: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else {
      invariantFailed("cannot make a socket pair: errno \(errno)")
    }
    var sent = 0
    while sent < bytes.count {
      let written = bytes[sent...].withUnsafeBytes { send(ends[1], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if written <= 0 { break }
      sent += written
    }
    close(ends[1])
    return ends[0]
  }
}
