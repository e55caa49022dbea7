import WebSocketEcho

/// The echo server `Scripts/Tests/case_websocket_test.lua` talks to, at the WebSocket case
/// study's URL (ws://127.0.0.1:8766/), for tests that run the whole script suite. Another one
/// already listening there (Scripts/test's, a demo's) answers the same. Stop it when done.
func startScriptEchoServer() -> WebSocketEchoServer {
  let server = WebSocketEchoServer()
  _ = try? server.start(port: 8766)
  return server
}
