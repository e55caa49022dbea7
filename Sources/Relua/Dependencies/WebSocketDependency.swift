import Composable
import WebSocket

/// WebSocket connections as effects see them (`deps.websocket` in Lua; see `LuaWebSocket`),
/// kept by id as TCA's `WebSocketClient` keeps them: the effect that connects owns the socket,
/// others send through its id. Opening an id that is open closes the one before.
///
/// A store uses the live client; a test store has none unless the test gives one (`deps = {
/// websocket = "live" }`, a client of its own): without it a test fails with "Unimplemented
/// dependency: websocket".
@MainActor
package final class WebSocketClient: @unchecked Sendable {  // used on the main actor only
  package typealias Connect = @MainActor @Sendable (_ url: String) async throws -> WebSocketConnection

  private let connector: Connect
  private var sockets: [String: WebSocketConnection] = [:]

  package init(connect: @escaping Connect) { connector = connect }

  /// Connections made by `WebSocketConnection.connect` (ws:// URLs, on POSIX sockets).
  package nonisolated static func live() -> WebSocketClient {
    MainActor.assumeIsolated { WebSocketClient { url in try await WebSocketConnection.connect(to: url) } }
  }

  /// Connects to `url` and keeps the connection under `id` (closing one open there before).
  package func open(id: String, url: String) async throws -> WebSocketConnection {
    let connection = try await connector(url)
    sockets[id]?.close()
    sockets[id] = connection
    return connection
  }

  /// The open connection kept under `id`, if there is one.
  package func socket(id: String) -> WebSocketConnection? {
    guard let connection = sockets[id] else { return nil }
    if connection.isClosed {
      sockets[id] = nil
      return nil
    }
    return connection
  }
}

private enum WebSocketClientKey: DependencyKey {
  static var liveValue: WebSocketClient { shared }
  static var name: String { "websocket" }
  private static let shared = WebSocketClient.live()
}

extension DependencyValues {
  /// The WebSocket client (see `WebSocketClient`).
  package var websocket: WebSocketClient {
    get { self[WebSocketClientKey.self] }
    set { self[WebSocketClientKey.self] = newValue }
  }
}
