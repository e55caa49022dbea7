import Foundation
import WebSocket
import XCTest

/// A page's WebSocket to an inspector, as a test drives it: JSON messages read one at a time (by
/// one task at a time), text sent as is.
final class PageConnection: @unchecked Sendable {
  private let connection: WebSocketConnection
  private var iterator: AsyncThrowingStream<WebSocketMessage, any Error>.Iterator

  init(port: Int, token: String) async throws {
    connection = try await WebSocketConnection.connect(to: "ws://127.0.0.1:\(port)/ws?token=\(token)", origin: "http://127.0.0.1:\(port)")
    iterator = connection.messages.makeAsyncIterator()
  }

  /// The next message, as a JSON object.
  func next() async throws -> [String: Any] {
    guard case .text(let text)? = try await iterator.next() else { throw Ended() }
    return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
  }

  func send(_ text: String) async throws {
    try await connection.send(.text(text))
  }

  func close() { connection.close() }

  struct Ended: Error, CustomStringConvertible {
    var description: String { "the connection ended" }
  }
}
