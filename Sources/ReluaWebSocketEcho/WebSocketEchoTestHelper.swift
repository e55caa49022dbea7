import Relua
import WebSocketEcho

/// `relua.testing.websocketEcho()` for Lua tests, as a plug-in: the URL of the process's loopback
/// WebSocket echo server (`WebSocketEchoServer.shared()`: started on first use on an ephemeral
/// port, one per process, stopped at exit), `"ws://127.0.0.1:PORT/"`. Paths choose how the server
/// ends a connection (`url .. "drop"`, `url .. "close"`: see `WebSocketEchoServer`).
///
///     ReluaHost.registerTestHelper(WebSocketEchoTestHelper.make())
///
/// The `relua` command and the Swift test suite register it; `Relua` itself knows no server.
public enum WebSocketEchoTestHelper {
  /// The name tests call it by: `relua.testing.websocketEcho()`.
  public static let name = "websocketEcho"

  /// The helper: `relua.testing.websocketEcho()` returns the echo server's `ws://` URL.
  public static func make() -> ReluaTestHelper {
    ReluaTestHelper(name) { arguments in
      guard arguments.isEmpty else {
        throw ReluaTestHelper.ArgumentError(position: 1, "relua.testing.websocketEcho() takes no arguments")
      }
      return [.string(try WebSocketEchoServer.shared().url)]
    }
  }
}
