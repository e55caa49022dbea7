import ArgumentParser
import Composable
import GitHub
import Relua
import ReluaGitHub

/// `relua`: run Lua feature scripts over the reducer engine.
@main
struct ReluaCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "relua",
    abstract: "A Swift runtime for Lua 5.4 features in the style of The Composable Architecture.",
    subcommands: [RunCommand.self, TestCommand.self, ReplCommand.self, FakeGitHubCommand.self, WebSocketEchoCommand.self]
  )

  static func main() async {
    // Effects' nonisolated code runs on the main actor's queue, one job at a time: no thread hop
    // per await (see `MainSerialExecutor`). relua's blocking I/O runs on threads of its own.
    MainSerialExecutor.acquire()
    // deps.github, the plug-in: the live client (GITHUB_TOKEN; RELUA_GITHUB_API for a fake server).
    ReluaHost.registerForEveryState(GitHubDependency.make(.live(LiveGitHubClient.fromEnvironment())))
    do {
      var command = try parseAsRoot()
      if var asyncCommand = command as? AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      exit(withError: error)
    }
  }
}
