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

  /// The next message, as a JSON object; one that does not come within `timeout` fails the test
  /// (and ends the reading: the stream stops with the cancelled wait) instead of hanging it.
  func next(timeout: Duration = .seconds(10)) async throws -> [String: Any] {
    let message = try await withThrowingTaskGroup(of: WebSocketMessage?.self) { group in
      group.addTask { try await self.iterator.next() }
      group.addTask {
        try await Task.sleep(for: timeout)
        throw TimedOut(timeout: timeout)
      }
      defer { group.cancelAll() }
      return try await group.next() ?? nil
    }
    guard case .text(let text)? = message else { throw Ended() }
    return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
  }

  func send(_ text: String) async throws {
    try await connection.send(.text(text))
  }

  func close() { connection.close() }

  struct Ended: Error, CustomStringConvertible {
    var description: String { "the connection ended" }
  }

  struct TimedOut: Error, CustomStringConvertible {
    var timeout: Duration
    var description: String { "no message came within \(timeout)" }
  }
}
