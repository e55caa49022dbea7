import ArgumentParser
import Foundation
import Lua
import Relua

/// `relua repl [FILE]`: Lua's interactive mode; a FILE returning a feature opens it as an app.
struct ReplCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "repl",
    abstract: "Play with Lua, or with a feature script as an interactive app.",
    discussion: """
      Without FILE: a Lua prompt like `lua -i` (1+1 prints 2, =expr, unfinished lines continue on >>, \
      Ctrl-C stops a running chunk or drops the input being typed, Ctrl-D quits). With FILE: runs it \
      first (Ctrl-C stops it too); if it returns a feature \
      (relua.feature), opens a store of it with live dependencies and shows its screen. :help lists \
      the commands (:increment, :state, :screens, :back, :undo, :redo, :reload, :save, :load, \
      :record). History is kept in ~/.relua_history ($RELUA_HISTORY). With standard input not a \
      terminal, no prompts are printed, so the REPL can be scripted.
      """
  )

  @OptionGroup var sandbox: SandboxOptions

  @Argument(help: "A Lua script to run first (a feature script opens feature mode).")
  var file: String?

  @MainActor
  func run() async throws {
    var options = sandbox.luaOptions(scriptRoots: file.map(LuaTestDiscovery.scriptRoots(for:)) ?? [FileManager.default.currentDirectoryPath])
    options.interruptible = true
    let lua = try LuaState(options: options)
    defer { lua.close() }
    let session = try ConsoleSession(lua: lua, reader: LineReader())
    if let file, !(await session.load(file: file)) {
      throw ExitCode.failure
    }
    let code = await session.run()
    if code != 0 { throw ExitCode(code) }
  }
}
