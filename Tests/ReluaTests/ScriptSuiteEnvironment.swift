import Relua
import ReluaGitHub
import ReluaSQLite
import ReluaWebSocketEcho

/// What the whole script suite needs around it, as `relua test` has it: `relua.testing.websocketEcho()`
/// (`Scripts/Tests/case_websocket_test.lua` asks it for the process's echo server, started on an
/// ephemeral loopback port on first use, stopped at exit: no fixed port, nothing to stop here) and
/// the `deps.github` plug-in the command line registers (here without a network: the scripts give
/// stubs), and the `sqlite` shared key (in memory in test stores).
@MainActor
func prepareScriptSuite() {
  ReluaHost.registerForEveryState(GitHubDependency.make(.notConfigured))
  ReluaHost.registerTestHelper(WebSocketEchoTestHelper.make())
  ReluaHost.registerSQLiteSharedKeyForEveryState()
}
