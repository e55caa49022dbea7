import ArgumentParser
import Foundation
import Lua

/// `relua run FILE [ARGS…]`: runs one script in the sandbox, like `lua FILE ARGS…`.
struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Run a Lua script (sandboxed unless --trusted).",
    discussion: """
      The arguments after FILE are the chunk's `...` and the global `arg` table (arg[0] is FILE).
      `require` finds modules in the script's directory. A Lua error prints FILE:LINE, the message
      and a traceback on standard error and exits 1.
      """
  )

  @OptionGroup var sandbox: SandboxOptions

  @Argument(help: "The Lua script to run.")
  var file: String

  @Argument(parsing: .captureForPassthrough, help: "Arguments passed to the script.")
  var arguments: [String] = []

  func run() throws {
    let scriptDirectory = URL(fileURLWithPath: file).deletingLastPathComponent().path
    do {
      let lua = try LuaState(options: sandbox.luaOptions(scriptRoots: [scriptDirectory]))
      defer { lua.close() }
      let argTable = try lua.table(array: arguments.map { .text($0) })
      try argTable.rawSet(.integer(0), .text(file))
      try lua.setGlobal("arg", .table(argTable))
      try lua.execute(file: file, arguments: arguments.map { .text($0) })
    } catch let error as LuaError {
      FileHandle.standardError.write(Data((ScriptFailure(error).text + "\n").utf8))
      throw ExitCode.failure
    }
  }
}
