import ArgumentParser
import Composable
import Foundation
import Lua
import Relua
import ReluaConsole

/// `relua run FILE [ARGS…]`: runs one script in the sandbox, like `lua FILE ARGS…`.
struct RunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Run a Lua script (sandboxed unless --trusted).",
    discussion: """
      The arguments after FILE are the chunk's `...` and the global `arg` table (arg[0] is FILE). \
      relua's own --instruction-limit, --memory-limit and --trusted are taken wherever they appear, \
      after FILE too, up to a `--`: everything after `--` goes to the script (`relua run s.lua \
      --trusted -- --trusted` runs trusted and gives the script one argument, --trusted).
      `require` finds modules in the script's directory and in the repository's Scripts directory;
      `require "relua"` is the feature DSL. The script runs as a coroutine, so it can await stores
      (`store:wait()`) and dependencies. A Lua error prints FILE:LINE, the message and a traceback
      on standard error and exits 1. --instruction-limit counts everything the script causes \
      (reducers, effects; each entry into Lua at least 1,000); --memory-limit counts what Lua \
      allocates and the state relua holds for the script's stores. Ctrl-C stops the script: "interrupted!" with FILE:LINE and a \
      traceback, exit status 130 (a second Ctrl-C ends relua at once).
      """
  )

  /// The exit status after Ctrl-C stopped the script: 128 + SIGINT, what a shell reports for a
  /// program SIGINT ended, so callers (make, a script's `$?`) see it was interrupted.
  static let interruptedStatus: Int32 = 130

  @OptionGroup var sandbox: SandboxOptions

  @Argument(help: "The Lua script to run.")
  var file: String

  @Argument(parsing: .captureForPassthrough, help: "Arguments passed to the script (relua's own options among them are taken, up to a `--`).")
  var arguments: [String] = []

  /// Takes relua's options out of the script's arguments (see `ScriptArguments`).
  mutating func validate() throws {
    let split: ScriptArguments
    do {
      split = try ScriptArguments(arguments, endedOptions: Self.optionsEndedBeforeFile(arguments))
    } catch let error as ScriptArguments.Invalid {
      throw ValidationError(error.description)
    }
    arguments = split.script
    if split.own.trusted { sandbox.trusted = true }
    if let limit = split.own.memoryLimit { sandbox.memoryLimit = limit }
    if let limit = split.own.instructionLimit { sandbox.instructionLimit = limit }
    try sandbox.validate()
  }

  /// Whether the command line had a `--` before FILE (ArgumentParser takes it and does not say):
  /// the words after FILE are the command line's last ones, as typed.
  static func optionsEndedBeforeFile(_ afterFile: [String]) -> Bool {
    let words = CommandLine.arguments.dropFirst()
    guard words.count >= afterFile.count, Array(words.suffix(afterFile.count)) == afterFile else { return false }
    return words.dropLast(afterFile.count).contains("--")
  }

  @MainActor
  func run() async throws {
    try await Self.runScript(file, arguments: arguments, sandbox: sandbox)
  }

  /// Runs `file` as `relua run` does; `commandLine`: lua.c's (`relua -e … FILE`): its options
  /// (warnings, `-E`), its `arg` table, set before `LUA_INIT` and the `-e`/`-l` steps, which run
  /// first, and from which the script's `...` is read.
  @MainActor
  static func runScript(
    _ file: String, arguments: [String], sandbox: SandboxOptions, commandLine: (line: LuaCommandLine, arg: LuaArgTable)? = nil
  ) async throws {
    do {
      let roots = LuaTestDiscovery.scriptRoots(for: file)
      var options = commandLine?.line.luaOptions(scriptRoots: roots) ?? sandbox.luaOptions(scriptRoots: roots)
      options.interruptible = true  // Ctrl-C stops the script where it is (see InterruptSignal)
      // --instruction-limit counts all the Lua the script causes: its chunk, reducers, effects.
      options.sharesInstructionBudget = true
      let lua = try LuaState(options: options)
      defer { lua.close() }
      InterruptSignal.install(interactive: false)
      let host = try ReluaHost.install(in: lua)
      // The script starts with the collector's debt paid, as in lua.c's small fresh state: the
      // host's own chunks (prelude, views) left the generational collector close to a minor
      // cycle, which then ran inside the first lines of a script and finalized its garbage
      // early (Lua's main.lua: a finalizer's output came before another's).
      lua.collectGarbage()
      if let commandLine {
        try commandLine.arg.install(in: lua)
      } else {
        let argTable = try lua.table(array: arguments.map { .text($0) })
        try argTable.rawSet(.integer(0), .text(file))
        try lua.setGlobal("arg", .table(argTable))
      }
      InterruptSignal.arm(lua)
      defer { InterruptSignal.disarm() }
      // lua.c's LUA_INIT (trusted only), then `-e`/`-l` in order.
      let initialization = commandLine.map { $0.line.initialization } ?? (sandbox.trusted ? LuaCommandLine.initialization() : nil)
      for step in [initialization].compactMap({ $0 }) + (commandLine?.line.steps ?? []).map(\.chunk) {
        _ = try await LuaCoroutineDriver.run(try lua.load(step.source, name: step.name), arguments: step.arguments.map { .text($0) })
      }
      let chunk = try lua.load(file: file)
      let scriptArguments = commandLine == nil ? arguments.map { .text($0) } : try LuaArgTable.scriptArguments(in: lua)
      _ = try await LuaCoroutineDriver.run(chunk, arguments: scriptArguments)
      host.flushSharedSaves()
      // The finalizers run now, under a budget of their own: one that loops is stopped (a
      // warning each) and the run fails, naming where it was, instead of hanging at exit.
      lua.close()
      if let failure = lua.finalizerFailure {
        FileHandle.standardError.write(Data(("relua: \(failure.description) (in a __gc finalizer, at exit)\n").utf8))
        throw ExitCode.failure
      }
    } catch let error as ReluaError {
      FileHandle.standardError.write(Data((Elision.standard.cut(text: error.fullDescription) + "\n").utf8))
      throw ExitCode.failure
    } catch let error as LuaError {
      FileHandle.standardError.write(Data((ScriptFailure(error).text + "\n").utf8))
      if case .interrupted = error { throw ExitCode(Self.interruptedStatus) }
      throw ExitCode.failure
    }
  }
}
