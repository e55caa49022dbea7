/// Reads whole messages from a connection's frames (RFC 6455 §5.4): joins fragments, answers
/// pings (`reply`), and reports the peer's close. Shared by the client, the echo server and the
/// inspector's server. A message is refused by the declared lengths of its frames before they are
/// read: one frame, or fragments adding up, past `maxMessage` is `.tooLarge` with at most a frame
/// header read of it.
package struct WebSocketMessageReader {
  package enum Event: Equatable {
    case message(WebSocketMessage)
    /// The peer sent a close frame (its code, if it gave one).
    case closed(code: UInt16?)
  }

  /// The largest message by default, whole or in fragments (a frame's own limit).
  package static var maxMessage: Int { 16 << 20 }

  private let reader: SocketReader
  private let reply: (WebSocketFrame) -> Void
  /// The largest message this reader takes, whole or in fragments.
  package let maxMessage: Int
  private let sender: WebSocketFrame.Sender
  private let frameTimeout: Duration?

  /// `sender`: who sends the frames (a server requires masked ones: `.client`). `frameTimeout`:
  /// when set, a frame must arrive whole within it once its first byte came (and a fragment
  /// within it of the one before): a slow sender cannot hold the reader; between messages the
  /// reader waits as long as the peer is silent.
  package init(
    _ reader: SocketReader, maxMessage: Int = WebSocketMessageReader.maxMessage, sender: WebSocketFrame.Sender = .either,
    frameTimeout: Duration? = nil, reply: @escaping (WebSocketFrame) -> Void
  ) {
    self.reader = reader
    self.reply = reply
    self.maxMessage = maxMessage
    self.sender = sender
    self.frameTimeout = frameTimeout
  }

  package func next() throws(WebSocketFrame.ReadError) -> Event {
    var fragments: (opcode: WebSocketFrame.Opcode, bytes: [UInt8])?
    while true {
      if let frameTimeout {
        if fragments == nil {
          reader.deadline = nil
          guard reader.waitForBytes() else { throw .ended }
        }
        reader.deadline = .now + frameTimeout
      }
      // A continuation may bring only what the message still has room for.
      let frame: WebSocketFrame
      do throws(WebSocketFrame.ReadError) {
        frame = try WebSocketFrame.read(from: reader, maxPayload: maxMessage - (fragments?.bytes.count ?? 0), sender: sender)
      } catch {
        if case .tooLarge = error, fragments != nil { throw .tooLarge("a message of more than \(maxMessage) bytes in fragments") }
        throw error
      }
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
        // it without end, a frame at a time): checked by its declared length, above.
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
