/// Reads whole messages from a connection's frames (RFC 6455 §5.4): joins fragments, answers
/// pings (`reply`), and reports the peer's close. Shared by the client and the echo server.
package struct WebSocketMessageReader {
  package enum Event: Equatable {
    case message(WebSocketMessage)
    /// The peer sent a close frame (its code, if it gave one).
    case closed(code: UInt16?)
  }

  /// The largest message, whole or in fragments (a frame's own limit).
  package static var maxMessage: Int { 16 << 20 }

  private let reader: SocketReader
  private let reply: (WebSocketFrame) -> Void

  package init(_ reader: SocketReader, reply: @escaping (WebSocketFrame) -> Void) {
    self.reader = reader
    self.reply = reply
  }

  package func next() throws(WebSocketFrame.ReadError) -> Event {
    var fragments: (opcode: WebSocketFrame.Opcode, bytes: [UInt8])?
    while true {
      let frame = try WebSocketFrame.read(from: reader)
      switch frame.opcode {
      case .ping:
        reply(WebSocketFrame(.pong, frame.payload))
      case .pong:
        continue
      case .close:
        let code = frame.payload.count >= 2 ? UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]) : nil
        return .closed(code: code)
      case .text, .binary:
        guard fragments == nil else { throw .protocolError("a new message began inside a fragmented one") }
        if frame.fin { return .message(try Self.message(frame.opcode, frame.payload)) }
        fragments = (frame.opcode, frame.payload)
      case .continuation:
        guard var partial = fragments else { throw .protocolError("a continuation frame without a message") }
        // A message in fragments has the limit of one frame, in all (a peer could otherwise grow
        // it without end, 16 MiB at a time).
        guard partial.bytes.count + frame.payload.count <= Self.maxMessage else {
          throw .protocolError("a message of more than \(Self.maxMessage) bytes in fragments")
        }
        partial.bytes += frame.payload
        if frame.fin { return .message(try Self.message(partial.opcode, partial.bytes)) }
        fragments = partial
      }
    }
  }

  private static func message(_ opcode: WebSocketFrame.Opcode, _ bytes: [UInt8]) throws(WebSocketFrame.ReadError) -> WebSocketMessage {
    guard opcode == .text else { return .binary(bytes) }
    guard let text = String(validating: bytes, as: UTF8.self) else { throw .protocolError("a text message that is not UTF-8") }
    return .text(text)
  }
}
