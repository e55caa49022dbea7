import ArgumentParser

/// `relua`: run Lua feature scripts over the reducer engine.
@main
struct ReluaCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "relua",
    abstract: "A Swift runtime for Lua 5.4 features in the style of The Composable Architecture.",
    subcommands: [RunCommand.self, TestCommand.self, ReplCommand.self, FakeGitHubCommand.self, WebSocketEchoCommand.self]
  )
}
