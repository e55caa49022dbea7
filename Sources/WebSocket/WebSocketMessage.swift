/// A whole message received from (or sent to) a WebSocket: text (UTF-8) or binary.
public enum WebSocketMessage: Sendable, Equatable {
  case text(String)
  case binary([UInt8])
}
