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
    /// The stream ended (or failed, or its deadline passed) before a whole frame.
    case ended
    /// A frame this side does not accept, and why (close code 1002).
    case protocolError(String)
    /// A frame (or a message in fragments) whose declared length is over the limit, refused
    /// before its payload was read (close code 1009, "message too big").
    case tooLarge(String)
  }

  /// Who sends the frames read: a client masks every frame (RFC 6455 §5.1), a server none.
  package enum Sender: Sendable {
    case client, server, either
  }

  /// Reads one frame (unmasking it), refusing payloads over `maxPayload` bytes by their declared
  /// length, before reading them: at most the header is read of a frame refused. `from`: a
  /// server reads a client's frames, which must be masked; `.either` takes both (a client that
  /// does not check its server's frames). Control frames must be whole and at most 125 bytes.
  package static func read(
    from reader: SocketReader, maxPayload: Int = 16 << 20, sender: Sender = .either
  ) throws(ReadError) -> WebSocketFrame {
    guard let head = reader.read(2) else { throw .ended }
    guard head[0] & 0x70 == 0 else { throw .protocolError("reserved bits set (no extension was agreed)") }
    guard let opcode = Opcode(rawValue: head[0] & 0x0F) else { throw .protocolError("unknown opcode \(head[0] & 0x0F)") }
    let fin = head[0] & 0x80 != 0
    let masked = head[1] & 0x80 != 0
    switch sender {
    case .client where !masked: throw .protocolError("a client's frame must be masked")
    case .server where masked: throw .protocolError("a server's frame must not be masked")
    default: break
    }
    var length = UInt64(head[1] & 0x7F)
    if opcode.rawValue >= 8 {
      guard fin, length <= 125 else { throw .protocolError("a control frame must be whole and at most 125 bytes") }
    }
    if length == 126 {
      guard let bytes = reader.read(2) else { throw .ended }
      length = UInt64(bytes[0]) << 8 | UInt64(bytes[1])
    } else if length == 127 {
      guard let bytes = reader.read(8) else { throw .ended }
      length = bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
    guard length <= UInt64(max(0, maxPayload)) || opcode.rawValue >= 8 else {
      throw .tooLarge("a frame of \(length) bytes is over the limit of \(maxPayload)")
    }
    var key: [UInt8]?
    if masked {
      guard let bytes = reader.read(4) else { throw .ended }
      key = bytes
    }
    guard var payload = reader.read(Int(length)) else { throw .ended }
    if let key { for index in payload.indices { payload[index] ^= key[index % 4] } }
    return WebSocketFrame(fin: fin, opcode, payload)
  }
}
