import ArgumentParser
import Foundation
import Lua
import Relua
import ReluaConsole
import ReluaInspector

/// `relua repl [options] [FILE [ARGS…]]`: Lua's interactive mode, with lua.c's options; a FILE
/// returning a feature opens it as an app.
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

      lua.c's options, in order, before FILE: -e STAT runs STAT, -l MOD requires MOD into the \
      global MOD (-l G=MOD into G), -v prints the version, -E ignores LUA_INIT, LUA_PATH and \
      LUA_CPATH, -W turns warnings on (off until then, as in lua.c), -i writes _PROMPT and \
      _PROMPT2 when set even without a terminal (the REPL is interactive anyway), -- ends the \
      options, - runs standard input as a chunk and ends. The global arg is lua.c's (the words \
      before FILE at -1, -2, …), set before -e and -l run; FILE's ... is read from it. relua's \
      own --trusted, --memory-limit and --instruction-limit go anywhere before FILE. Trusted, \
      LUA_INIT_5_4 or LUA_INIT runs first (@FILE runs that file) and LUA_PATH/LUA_CPATH set \
      require's paths, as in lua.c. `require "Features.GuessingGame"` finds the repository's \
      Scripts/ from its root, as `relua run` does.

      --inspect [PORT] (anywhere before a --, after FILE too) serves the inspector, the session \
      live in a browser: the action log with each diff and the state as a tree. It listens on \
      127.0.0.1:PORT (any free port without one) and prints its address with a secret token \
      (Inspector: http://127.0.0.1:PORT/?token=…); without the token every request is refused.
      """
  )

  @Argument(parsing: .captureForPassthrough, help: "lua.c's options, then a Lua script to run first and its arguments.")
  var words: [String] = []

  @MainActor
  func run() async throws {
    try await Self.run(words: words)
  }

  /// `relua repl WORDS…`, its words as typed (relua's main calls it directly: the argument parser
  /// refuses some words lua.c's command line has its own message for, as `---`).
  @MainActor
  static func run(words typed: [String]) async throws {
    let line: LuaCommandLine
    var words = typed
    let inspect: UInt16?
    do {
      inspect = try InspectOption.take(from: &words)
      line = try LuaCommandLine(words)
    } catch {
      // As lua.c: the message and the usage once, exit status 1.
      FileHandle.standardError.write(Data("relua: \(error)\n\(LuaCommandLine.usage)\n".utf8))
      throw ExitCode.failure
    }
    if line.help {
      print(helpMessage())
      return
    }
    // `arg`'s words: the program and `repl` as typed (the words before this command's own), then
    // those lua.c's command line read (--inspect taken out).
    let program = Array(CommandLine.arguments.dropLast(typed.count))
    let argTable = LuaArgTable(commandLine: program + words, hasScript: line.script != nil, scriptArguments: line.arguments)
    try await Self.run(line, argTable: argTable, interactive: true, inspect: inspect)
  }

  /// Runs lua.c's command line with the REPL: `-v`, `LUA_INIT` (trusted), `-l`/`-e` in order,
  /// then the script (`-` is standard input, which ends it); then the prompt when `interactive`.
  /// `inspect`: the inspector's port (0: any free one); nil serves nothing.
  @MainActor
  static func run(_ line: LuaCommandLine, argTable: LuaArgTable, interactive: Bool, inspect: UInt16? = nil) async throws {
    if line.version {
      LuaCommandLine.printVersion()
      if line.script == nil && line.steps.isEmpty && !line.interactive { return }
    }
    let file = line.script == "-" ? nil : line.script
    let cwd = FileManager.default.currentDirectoryPath
    // Without a script, `require` looks where it would for a script here: the directory and
    // the repository's Scripts/ found from it.
    let roots = LuaTestDiscovery.scriptRoots(for: file ?? (cwd + "/(repl)"))
    var options = line.luaOptions(scriptRoots: roots)
    options.interruptible = true
    let lua = try LuaState(options: options)
    defer { lua.close() }
    let session = try ConsoleSession(lua: lua, reader: LineReader())
    defer { session.restorePrint() }  // (before the state closes)
    var inspector: InspectorServer?
    if let inspect { inspector = try await startInspector(port: inspect, for: session) }
    // _PROMPT even without a terminal when -i asks for the interactive mode, as lua.c.
    session.promptsWithoutTerminal = line.interactive
    try argTable.install(in: lua)
    for chunk in [line.initialization].compactMap({ $0 }) + line.steps.map(\.chunk) {
      guard await session.execute(chunk.source, chunkName: chunk.name, arguments: chunk.arguments) else {
        throw ExitCode.failure
      }
    }
    if line.script != nil {
      // The script's `...`: from `arg` as it is now (lua.c).
      let scriptArguments: [LuaValue]
      do { scriptArguments = try LuaArgTable.scriptArguments(in: lua) } catch {
        session.report(error)
        throw ExitCode.failure
      }
      if let file {
        guard await session.load(file: file, arguments: scriptArguments) else { throw ExitCode.failure }
      } else {
        let source = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        guard await session.execute(source, chunkName: "=stdin", values: scriptArguments) else { throw ExitCode.failure }
        guard line.interactive else { return }
      }
    }
    guard interactive else { return }
    let code = await session.run()
    await inspector?.stop()
    if code != 0 { throw ExitCode(code) }
  }

  /// Starts the inspector, fed by `session`'s events (before any script runs, so that it sees
  /// the feature open), and prints its address.
  @MainActor
  private static func startInspector(port: UInt16, for session: ConsoleSession) async throws -> InspectorServer {
    let server: InspectorServer
    do {
      server = try await InspectorServer.start(port: port, session: session)
    } catch {
      FileHandle.standardError.write(Data("relua: \(error)\n".utf8))
      throw ExitCode.failure
    }
    let hub = server.hub
    session.eventObserver = { hub.record($0) }
    // Written at once (a pipe would buffer print's output): tests wait for this line.
    FileHandle.standardOutput.write(Data("Inspector: \(server.url)\n".utf8))
    return server
  }
}
