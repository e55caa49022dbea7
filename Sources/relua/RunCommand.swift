import ArgumentParser
import Foundation
import Lua
import GitHub
import Relua

/// `relua run FILE [ARGS…]`: runs one script in the sandbox, like `lua FILE ARGS…`.
struct RunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Run a Lua script (sandboxed unless --trusted).",
    discussion: """
      The arguments after FILE are the chunk's `...` and the global `arg` table (arg[0] is FILE).
      `require` finds modules in the script's directory and in the repository's Scripts directory;
      `require "relua"` is the feature DSL. The script runs as a coroutine, so it can await stores
      (`store:wait()`) and dependencies. A Lua error prints FILE:LINE, the message and a traceback
      on standard error and exits 1.
      """
  )

  @OptionGroup var sandbox: SandboxOptions

  @Argument(help: "The Lua script to run.")
  var file: String

  @Argument(parsing: .captureForPassthrough, help: "Arguments passed to the script.")
  var arguments: [String] = []

  @MainActor
  func run() async throws {
    do {
      let lua = try LuaState(options: sandbox.luaOptions(scriptRoots: LuaTestDiscovery.scriptRoots(for: file)))
      defer { lua.close() }
      try ReluaHost.install(in: lua).liveGitHub = .live(LiveGitHubClient.fromEnvironment())
      let argTable = try lua.table(array: arguments.map { .text($0) })
      try argTable.rawSet(.integer(0), .text(file))
      try lua.setGlobal("arg", .table(argTable))
      let chunk = try lua.load(file: file)
      _ = try await LuaCoroutineDriver.run(chunk, arguments: arguments.map { .text($0) })
    } catch let error as ReluaError {
      FileHandle.standardError.write(Data((error.fullDescription + "\n").utf8))
      throw ExitCode.failure
    } catch let error as LuaError {
      FileHandle.standardError.write(Data((ScriptFailure(error).text + "\n").utf8))
      throw ExitCode.failure
    }
  }
}
