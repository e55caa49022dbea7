import Relua
import ReluaGitHub
import WebSocketEcho

/// What the whole script suite needs around it, as `relua test` has it: the echo server
/// `Scripts/Tests/case_websocket_test.lua` talks to, at the WebSocket case study's URL
/// (ws://127.0.0.1:8766/; another one already listening there — Scripts/test's, a demo's —
/// answers the same), and the `deps.github` plug-in the command line registers (here without a
/// network: the scripts give stubs). Stop the server when done.
@MainActor
func prepareScriptSuite() -> WebSocketEchoServer {
  ReluaHost.registerForEveryState(GitHubDependency.make(.notConfigured))
  let server = WebSocketEchoServer()
  _ = try? server.start(port: 8766)
  return server
}
