/// Why a WebSocket failed, as a sentence a user understands: `WebSocket: connection refused
/// (ws://127.0.0.1:1/)`.
public struct WebSocketError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String
  public var url: String

  public init(_ message: String, url: String) {
    self.message = message
    self.url = url
  }

  public var description: String { "WebSocket: \(message) (\(url))" }
}
