import ArgumentParser
import Foundation
import Composable
import GitHub
import Lua
import Relua
import ReluaGitHub
import ReluaSQLite
import ReluaWebSocketEcho

/// `relua`: run Lua feature scripts over the reducer engine.
@main
struct ReluaCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "relua",
    abstract: "A Swift runtime for Lua 5.4 features in the style of The Composable Architecture.",
    subcommands: [RunCommand.self, TestCommand.self, ReplCommand.self, TypesCommand.self, FakeGitHubCommand.self, WebSocketEchoCommand.self, AppCommand.self]
  )

  static func main() async {
    // Effects' nonisolated code runs on the main actor's queue, one job at a time: no thread hop
    // per await (see `MainSerialExecutor`). relua's blocking I/O runs on threads of its own.
    MainSerialExecutor.acquire()
    // deps.github, the plug-in: the live client (GITHUB_TOKEN; RELUA_GITHUB_API for a fake server).
    ReluaHost.registerForEveryState(GitHubDependency.make(.live(LiveGitHubClient.fromEnvironment())))
    // relua.testing.websocketEcho(), for `relua test`: an echo server on an ephemeral loopback
    // port, started on first use (other commands refuse the helper).
    ReluaHost.registerTestHelper(WebSocketEchoTestHelper.make())
    // relua.sharedKey("sqlite", { path = …, table = … }), the plug-in: a list kept in a table.
    ReluaHost.registerSQLiteSharedKeyForEveryState()
    let words = Array(CommandLine.arguments.dropFirst())
    let commands: Set<String> = ["run", "test", "repl", "types", "fake-github", "websocket-echo", "app", "help", "-h", "--help"]
    if words.first.map({ !commands.contains($0) }) ?? true {
      await runLuaCommandLine(words)
      return
    }
    // `relua repl` and lua.c's options: read by LuaCommandLine, not the argument parser (which
    // refuses `---` as its own error); `relua repl --help` is still the parser's.
    if words.first == "repl", !["-h", "--help", "help"].contains(words.dropFirst().first ?? "") {
      do { try await ReplCommand.run(words: Array(words.dropFirst())) } catch { exit(withError: error) }
      return
    }
    let command: ParsableCommand
    do {
      command = try parseAsRoot()
    } catch {
      // `relua app` alone beside a script named `app`: say how to run the script.
      if !exitCode(for: error).isSuccess, let note = CommandWordNote.note(for: words, commands: commands) {
        FileHandle.standardError.write(Data(note.utf8))
      }
      exit(withError: error)
    }
    do {
      var command = command
      if var asyncCommand = command as? AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      exit(withError: error)
    }
  }

  /// `relua` alone, or with lua.c's options and a script (`relua -e "x = 1" script.lua a b`): the
  /// REPL, or the script run as `relua run` runs it when it is given without `-i`.
  @MainActor
  static func runLuaCommandLine(_ words: [String]) async {
    do {
      let line: LuaCommandLine
      do { line = try LuaCommandLine(words) } catch {
        FileHandle.standardError.write(Data("relua: \(error)\n\(LuaCommandLine.usage)\n".utf8))
        Foundation.exit(1)
      }
      if line.help {
        print(LuaCommandLine.usage)
        return
      }
      let argTable = LuaArgTable(
        commandLine: [CommandLine.arguments.first ?? "relua"] + words, hasScript: line.script != nil,
        scriptArguments: line.arguments)
      if let script = line.script, script != "-", !line.interactive {
        if line.version { LuaCommandLine.printVersion() }
        var sandbox = SandboxOptions()
        sandbox.trusted = line.own.trusted
        sandbox.memoryLimit = line.own.memoryLimit
        sandbox.instructionLimit = line.own.instructionLimit
        try await RunCommand.runScript(script, arguments: line.arguments, sandbox: sandbox, commandLine: (line, argTable))
        return
      }
      // lua.c: with -e or -v and no script, run them and end; otherwise the prompt on a
      // terminal, and standard input run as one chunk when it is not one (a syntax error
      // anywhere runs nothing).
      var toRun = line
      let alone = !line.interactive && line.script == nil && line.steps.isEmpty && !line.version
      if alone && isatty(STDIN_FILENO) == 0 { toRun.script = "-" }
      let interactive = line.interactive || (alone && toRun.script == nil)
      try await ReplCommand.run(toRun, argTable: argTable, interactive: interactive)
    } catch {
      exit(withError: error)
    }
  }
}
