/// One WebSocket frame (RFC 6455 §5.2), as the client and the echo server read and write them.
package struct WebSocketFrame: Sendable, Equatable {
  package enum Opcode: UInt8, Sendable {
    case continuation = 0, text = 1, binary = 2, close = 8, ping = 9, pong = 10
  }

  package var fin: Bool
  package var opcode: Opcode
  package var payload: [UInt8]

  package init(fin: Bool = true, _ opcode: Opcode, _ payload: [UInt8] = []) {
    self.fin = fin
    self.opcode = opcode
    self.payload = payload
  }

  /// The frame's bytes; a client masks every frame it sends (`maskingKey`, 4 bytes), a server none.
  package func encoded(maskingKey: [UInt8]? = nil) -> [UInt8] {
    var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode.rawValue]
    let mask: UInt8 = maskingKey == nil ? 0 : 0x80
    switch payload.count {
    case 0..<126: bytes.append(mask | UInt8(payload.count))
    case 126...0xFFFF:
      bytes.append(mask | 126)
      bytes += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    default:
      bytes.append(mask | 127)
      for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: UInt64(payload.count) >> UInt64(shift))) }
    }
    if let key = maskingKey {
      bytes += key
      bytes += payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
    } else {
      bytes += payload
    }
    return bytes
  }

  package enum ReadError: Error, Equatable {
    /// The stream ended (or failed) before a whole frame.
    case ended
    /// A frame this side does not accept, and why.
    case protocolError(String)
  }

  /// Reads one frame (unmasking it), refusing payloads over `maxPayload` bytes.
  package static func read(from reader: SocketReader, maxPayload: Int = 16 << 20) throws(ReadError) -> WebSocketFrame {
    guard let head = reader.read(2) else { throw .ended }
    guard head[0] & 0x70 == 0 else { throw .protocolError("reserved bits set (no extension was agreed)") }
    guard let opcode = Opcode(rawValue: head[0] & 0x0F) else { throw .protocolError("unknown opcode \(head[0] & 0x0F)") }
    var length = UInt64(head[1] & 0x7F)
    if length == 126 {
      guard let bytes = reader.read(2) else { throw .ended }
      length = UInt64(bytes[0]) << 8 | UInt64(bytes[1])
    } else if length == 127 {
      guard let bytes = reader.read(8) else { throw .ended }
      length = bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
    guard length <= UInt64(maxPayload) else { throw .protocolError("a frame of \(length) bytes is over the limit of \(maxPayload)") }
    var key: [UInt8]?
    if head[1] & 0x80 != 0 {
      guard let bytes = reader.read(4) else { throw .ended }
      key = bytes
    }
    guard var payload = reader.read(Int(length)) else { throw .ended }
    if let key { for index in payload.indices { payload[index] ^= key[index % 4] } }
    return WebSocketFrame(fin: head[0] & 0x80 != 0, opcode, payload)
  }
}
