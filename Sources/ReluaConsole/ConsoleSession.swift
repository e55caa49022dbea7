import Composable
import Foundation
import Lua
import Relua

/// `relua repl`: Lua's own `lua -i` for plain Lua, and, when the script returns a feature, an
/// interactive app over a store of it (see `FeatureConsole`).
///
/// lua.c's behaviour: a line is first tried as `return <line>` (so `1+1` prints `2`), `=expr` is
/// short for it; input that ends early continues on a `>>` prompt; results print tab-separated;
/// an error prints its message and traceback and the REPL goes on; Ctrl-D ends the session. Lines
/// starting with `:` are commands (`:help`).
///
/// Results and errors are cut by `Elision.standard`, as everything relua prints for people; a
/// line ending in the Lua comment `--all` prints its results whole (`=rows --all`).
///
/// Ctrl-C never ends the session on a terminal: it stops a running chunk or a command's Lua
/// ("interrupted!"), and at a prompt it drops what was being typed, an unfinished chunk on `>>`
/// included, and gives a fresh prompt (see `InterruptSignal`).
@MainActor
package final class ConsoleSession {
  package let lua: LuaState
  package let host: ReluaHost
  let reader: LineReader
  let output: ConsoleOutput
  /// `LuaValuePrinter`'s function.
  private let printValue: LuaFunction
  private(set) var feature: FeatureConsole?
  private var running = true
  /// Told what the feature's store goes through (`ConsoleEvent`): the inspector's feed. Set it
  /// before `load(file:)`; without it nothing is computed for an observer.
  package var eventObserver: ((ConsoleEvent) -> Void)?

  package init(lua: LuaState, reader: LineReader, output: ConsoleOutput = ConsoleOutput()) throws {
    self.lua = lua
    self.host = try ReluaHost.install(in: lua)
    self.reader = reader
    self.output = output
    InterruptSignal.install(interactive: reader.isInteractive)
    guard let printValue = try lua.call(lua.load(LuaValuePrinter.source, name: LuaValuePrinter.chunkName)).first?.functionValue else {
      throw ReluaError.usage("the REPL's printer did not load")
    }
    self.printValue = printValue
    try routePrint()
    reader.complete = { [weak self] line, word in
      // Called on the reading thread: only the snapshot of names is read there.
      guard let names = self?.completionSnapshot.withLock({ $0 }) else { return [] }
      if let whole = Self.wholeMatches(names, line: line, word: word) { return whole }
      return names.filter { $0.hasPrefix(word) && $0 != word }.sorted()
    }
  }

  /// `print` writes through the REPL's output, as Lua's does (`tostring` of each argument, tabs
  /// between), so what an effect prints while a line is being typed goes above it.
  private func routePrint() throws {
    guard let tostring = try lua.global("tostring").functionValue else { return }
    let output = self.output
    routedPrint = .function(try lua.function { stack in
      var parts: [String] = []
      for value in stack.values {
        guard let text = try tostring.call(value).first?.stringValue else {
          throw LuaError.runtime(message: "'tostring' must return a string to 'print'", traceback: nil)
        }
        parts.append(text)
      }
      output.write(parts.joined(separator: "\t"))
      return []
    })
    originalPrint = try lua.global("print")
    try lua.setGlobal("print", routedPrint)
  }

  /// The state's own `print`, put back when the session ends (`restorePrint`).
  private var originalPrint: LuaValue = .nil

  /// Puts the state's own `print` back (if the script did not replace the REPL's), so that the
  /// finalizers closing the state runs print as lua.c's do: the REPL's output is gone by then.
  package func restorePrint() {
    if (try? lua.global("print")) == routedPrint { try? lua.setGlobal("print", originalPrint) }
  }

  /// The `print` the REPL installed; a script that replaces it gets its results printed through
  /// its own, as lua.c prints them (an error there: "error calling 'print' (…)").
  private var routedPrint: LuaValue = .nil

  /// Names Tab completes (globals, fields, commands, actions), refreshed after each line.
  let completionSnapshot = LockedValue<[String]>([])

  // MARK: Loading a script

  /// Modules `require` had loaded before any script ran (the standard library, relua).
  private var builtinModules: Set<String> = []

  /// Drops the script modules `require` cached, so that `:reload` reads them again.
  func forgetScriptModules() throws {
    guard let loaded = try lua.global("package").tableValue?["loaded"].tableValue else { return }
    for (key, _) in try loaded.pairs() {
      if let name = key.stringValue, !builtinModules.contains(name) { try loaded.rawSet(key, .nil) }
    }
  }

  /// Runs `file` first (like `lua -i FILE`), `arguments` its `...`; if it returns a feature,
  /// starts feature mode on it.
  package func load(file: String, arguments: [LuaValue] = []) async -> Bool {
    do {
      if let loaded = try lua.global("package").tableValue?["loaded"].tableValue {
        builtinModules = Set(try loaded.pairs().compactMap { $0.key.stringValue })
      }
      InterruptSignal.arm(lua)
      defer { InterruptSignal.disarm() }
      let chunk = try lua.load(file: file)
      let results = try await runInterruptibly(chunk, arguments: arguments)
      if let first = results.first, case .table(let table) = first, try host.tags.isFeature(table) {
        feature = try FeatureConsole(session: self, file: file, featureValue: first)
        try lua.setGlobal("store", feature!.storeValue)
        feature!.showScreen()
      }
      return true
    } catch {
      report(error)
      return false
    }
  }

  // MARK: lua.c's command line

  /// lua.c's `-e stat`, `-l g=mod` and `LUA_INIT`: runs `source` as a chunk with `arguments` as
  /// its `...`, printing nothing but errors.
  /// False after an error (reported).
  package func execute(_ source: String, chunkName: String = "=(command line)", arguments: [String] = []) async -> Bool {
    await execute(source, chunkName: chunkName, values: arguments.map { .text($0) })
  }

  /// `execute` with any values as the chunk's `...`.
  package func execute(_ source: String, chunkName: String, values: [LuaValue]) async -> Bool {
    do {
      let chunk = try lua.load(source, name: chunkName)
      InterruptSignal.arm(lua)
      defer { InterruptSignal.disarm() }
      _ = try await LuaCoroutineDriver.run(chunk, arguments: values)
      return true
    } catch {
      report(error)
      return false
    }
  }

  // MARK: The loop

  package func run() async -> Int32 {
    if reader.isInteractive {
      output.write(output.styled("relua — Lua 5.4 with features. :help lists commands; Ctrl-D quits.", .dim))
    }
    refreshCompletions()
    InterruptSignal.interruptAtPrompt(lua)
    defer { InterruptSignal.interruptAtPrompt(nil) }
    let endings = catchEndingSignals()
    defer { for source in endings { source.cancel() } }
    while running {
      switch await reader.readLine(prompt: prompt(continuation: false)) {
      case .line(let line):
        await handle(line)
        refreshCompletions()
      case .interrupted:
        // Ctrl-C at a prompt also stops the effects stores are running (lua.c has none): a
        // feature whose effects start effects without end is otherwise unstoppable.
        let stopped = host.cancelRunningEffects()
        if stopped > 0 { output.writeError("stopped \(stopped) running effect(s)") }
        continue
      case .end: running = false
      }
    }
    if reader.isInteractive || promptWrittenWithoutTerminal { output.write("") }
    feature?.keepUnsavedRecording(because: "quitting while recording (no :stop)")
    feature?.stop()
    host.flushSharedSaves()
    return 0
  }

  /// SIGTERM and SIGHUP (a `kill`, the terminal closed) end relua as they would without these
  /// handlers, but first keep a recording not yet written (`keepUnsavedRecording`). Handled on
  /// the main queue, between what the main actor runs (see `EndingSignal`).
  private func catchEndingSignals() -> [any DispatchSourceRead] {
    [EndingSignal.catchSignals { [weak self] number in
      self?.feature?.keepUnsavedRecording(because: "relua got \(number == SIGTERM ? "SIGTERM" : "SIGHUP") while recording")
      self?.host.flushSharedSaves()
      // Ended by the signal itself, as without the handler (process-directed: the main thread
      // may block it); should it be blocked everywhere, by the exit status a shell gives it.
      LineReader.flushBeforeExit()
      signal(number, SIG_DFL)
      kill(getpid(), number)
      usleep(100_000)
      exit(128 + number)
    }]
  }

  /// Whether `_PROMPT` and `_PROMPT2`, when set, are written when standard input is not a
  /// terminal (lua.c's `-i`). The default prompts are not: a scripted REPL prints only what the
  /// chunks print.
  package var promptsWithoutTerminal = false
  /// The last prompt was written without a terminal: the end of input ends its line (lua.c).
  private var promptWrittenWithoutTerminal = false

  /// lua.c's prompts: `_PROMPT` and `_PROMPT2` when set (through `tostring`), else `> ` and
  /// `>> `; a feature's screen path in feature mode.
  private func prompt(continuation: Bool) -> String {
    guard reader.isInteractive else {
      let written = promptsWithoutTerminal ? customPrompt(continuation ? "_PROMPT2" : "_PROMPT") ?? "" : ""
      promptWrittenWithoutTerminal = !written.isEmpty
      return written
    }
    if let custom = customPrompt(continuation ? "_PROMPT2" : "_PROMPT") { return custom }
    if continuation { return ">> " }
    // ASCII only: libedit measures the prompt in bytes in the C locale.
    if let feature { return feature.promptPath + "> " }
    return "> "
  }

  /// Whether the line being read continues a chunk (on `>>`, a prompt that names no screen).
  private var readingContinuation = false

  /// The prompt names the screen on top (`Game/ResultList> `): when an effect opens or closes a
  /// screen, the prompt of the line being typed changes with the breadcrumb, at once.
  func showPromptOfTopScreen() {
    guard !readingContinuation else { return }
    reader.changePrompt(to: prompt(continuation: false))
  }

  /// The global `name` through `tostring` (its `__tostring` is the script's code: run armed, and
  /// any failure falls back to the default prompt).
  private func customPrompt(_ name: String) -> String? {
    guard let value = try? lua.global(name) else { return nil }
    if case .nil = value { return nil }
    return try? InterruptSignal.armed(lua, { try lua.global("tostring").functionValue?.call(value).first?.stringValue })
  }

  /// Whether a line is being handled (an inspector's request waits for the prompt: see
  /// `ConsoleSession+Inspection`).
  private(set) var isHandlingLine = false

  func handle(_ line: String) async {
    isHandlingLine = true
    defer { isHandlingLine = false }
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    if trimmed.isEmpty { return }
    if trimmed.hasPrefix(":") {
      await command(String(trimmed.dropFirst()))
      return
    }
    await evaluate(line)
  }

  // MARK: Evaluating Lua (lua.c's rules)

  private func evaluate(_ first: String) async {
    var source = first
    if source.hasPrefix("=") { source = "return " + source.dropFirst() }
    var chunk: LuaFunction?
    while chunk == nil {
      do {
        chunk = try lua.load("return " + source, name: "=stdin")
      } catch {
        do {
          chunk = try lua.load(source, name: "=stdin")
        } catch let error as LuaError where error.isIncompleteInput {
          // Ctrl-C abandons the unfinished chunk; so does Ctrl-D, going back to the first prompt.
          // Input that ends there without a terminal is an error, as in lua.c ("near <eof>").
          readingContinuation = true
          let input = await reader.readLine(prompt: prompt(continuation: true))
          readingContinuation = false
          switch input {
          case .line(let more): source += "\n" + more
          case .end where !reader.isInteractive:
            report(error)
            return
          case .end, .interrupted: return
          }
        } catch {
          report(error)
          return
        }
      }
    }
    // Ctrl-C stops any Lua from here on: the chunk, a result's __tostring, the feature's view.
    InterruptSignal.arm(lua)
    let before = feature?.currentState
    var interrupted = false
    let all = Self.asksForEverything(source)
    do {
      let results = try await runInterruptibly(chunk!)
      let print = try lua.global("print")
      if !results.isEmpty, print != routedPrint {
        do {
          _ = try await LuaCoroutineDriver.run(try lua.load("local print = ...; print(select(2, ...))", name: "=[print]"), arguments: [print] + results)
        } catch let error as LuaError {
          if case .interrupted = error { throw error }
          output.writeError(output.styled("error calling 'print' (\(Self.message(of: error)))", .red))
        }
      } else if !results.isEmpty {
        output.write(try results.map { try printed($0, all: all) }.joined(separator: "\t"))
      }
    } catch {
      if case LuaError.interrupted = error { interrupted = true }
      report(error)
    }
    if let feature, let before { feature.showChange(from: before, cause: nil) }
    // Disarmed first: a press from here on ends relua in the handler itself (without a prompt);
    // one that came before, as the chunk was finishing (its result printing), stopped nothing and
    // ends it here, as one between chunks does. (Checked before disarming, a press landing in
    // between was taken by neither, and relua read on from a pipe with no more input.)
    InterruptSignal.disarm()
    if !interrupted { InterruptSignal.endIfPressedWithoutPrompt() }
  }

  /// Whether a chunk asks for its results whole: its last line ends in the comment `--all` (a
  /// complete chunk cannot end inside a string or a long comment, so that is always a comment,
  /// and the line stays Lua that `lua` itself runs).
  static func asksForEverything(_ source: String) -> Bool {
    source.trimmingCharacters(in: .whitespaces).hasSuffix("--all")
  }

  /// A result as the REPL prints it: a table as a Lua literal laid out on lines, a string bare,
  /// cut by the elision (`all`: whole). Its `__tostring` is the script's code, run under the
  /// state's limits and Ctrl-C: an interrupt stops the printing; another failure prints in its place.
  private func printed(_ value: LuaValue, all: Bool) throws -> String {
    do {
      let options = try lua.table(fields: ["width": .integer(100), "bare": .boolean(true), "all": .boolean(all)])
      let text = try printValue.call(value, .table(options)).first?.stringValue ?? "nil"
      // (A bare string and a `__tostring`'s text are cut here, as text; a table's printout is
      // within the text's limits already.)
      return all ? text : Elision.standard.cut(text: text)
    } catch let error as LuaError {
      if case .interrupted = error { throw error }
      return "(cannot print a \(value.type): \(error.message))"
    }
  }

  /// Runs a chunk as a driven coroutine (so it can await), with Ctrl-C interrupting it.
  func runInterruptibly(_ chunk: LuaFunction, arguments: [LuaValue] = []) async throws -> [LuaValue] {
    InterruptSignal.arm(lua)
    defer { InterruptSignal.disarm() }
    return try await LuaCoroutineDriver.run(chunk, arguments: arguments)
  }

  /// An error's text as `report` prints it, without its traceback or colour: what a page shows.
  static func message(of error: any Error) -> String { ReluaError.message(of: error) }

  /// An error, its message cut as any text is (`error(hugeString)` prints a screenful).
  package func report(_ error: any Error) {
    var text = output.styled(Self.message(of: error), .red)
    if let error = error as? LuaError, let traceback = error.traceback {
      switch error {
      case .runtime, .interrupted: text += "\n" + traceback
      default: break
      }
    }
    output.writeError(text)
  }

  // MARK: Commands

  private func command(_ written: String) async {
    // `::save FILE`: the REPL's command even where the screen has an action `save`.
    let explicit = written.hasPrefix(":")
    let text = explicit ? String(written.dropFirst()) : written
    let name = String(text.prefix { !$0.isWhitespace })
    let argument = text.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
    switch name {
    case "help", "h", "?":
      output.write(helpText)
    case "quit", "q", "exit":
      running = false
    default:
      if let feature {
        await feature.command(name, argument, explicit: explicit)
      } else {
        output.writeError("unknown command ':\(name)' — :help lists the commands")
      }
    }
  }

  private var helpText: String {
    var lines = [
      "Lua: type an expression (1+1) or a statement; =expr prints; an unfinished line continues on >>.",
      "  Long results are cut, saying what was left out ({ 1, 2, … 999,998 more }); end a line with --all to see all of it.",
      "  :help            this list",
      "  :quit            leave (or Ctrl-D); Ctrl-C stops a running chunk or drops the input being typed",
    ]
    if let feature { lines += FeatureConsole.helpLines + feature.actionHelpLines }
    return lines.joined(separator: "\n")
  }

  // MARK: Completion

  /// Lists what Tab completes after a global's name: `name.field` three levels deep (tables),
  /// `name:method` for a userdata's methods (`store:send`). Takes `methodNames`; returns the
  /// names, one a line, at most 5,000.
  static let completionSource = """
    local methodNames = ...
    local names, limit = {}, 5000
    local function add(name) if #names < limit then names[#names + 1] = name end end
    local function isName(key) return type(key) == "string" and string.find(key, "^[%a_][%w_]*$") ~= nil end
    -- next, not pairs: completing runs none of the script's __pairs.
    local function walk(prefix, value, depth)
      if type(value) == "table" then
        for key, field in next, value do
          if isName(key) then
            add(prefix .. "." .. key)
            if depth < 3 then walk(prefix .. "." .. key, field, depth + 1) end
          end
        end
      elseif type(value) == "userdata" then
        for _, method in ipairs(methodNames(value)) do add(prefix .. ":" .. method) end
      end
    end
    for key, value in next, _G do
      if isName(key) then
        add(key)
        if key ~= "_G" and key ~= "package" then walk(key, value, 1) end
      end
    end
    return table.concat(names, "\\n")
    """

  /// `methodNames(userdata)`: the names of its methods (the functions of its metatable's
  /// `__index` table, read raw: no script runs), for completion.
  private lazy var methodNames: LuaFunction? = try? lua.function { [lua] stack in
    guard case .userdata(let userdata)? = stack.values.first, let metatable = try userdata.metatable,
      let index = try metatable.rawGet("__index").tableValue
    else { return [.table(try lua.table(array: []))] }
    var names: [LuaValue] = []
    for (key, value) in try index.pairs() {
      if let name = key.stringValue, !name.hasPrefix("_"), case .function = value { names.append(.text(name)) }
    }
    return [.table(try lua.table(array: names))]
  }

  func refreshCompletions() {
    // Nothing completes without a terminal (and no Lua runs between piped chunks, where Ctrl-C
    // must end relua, not stop a completion pass).
    guard reader.isInteractive else { return }
    var names: [String] = []
    // (Armed: the script may have replaced `type` or `next`.)
    if let methodNames,
      let values = try? InterruptSignal.armed(lua, {
        try lua.call(lua.load(Self.completionSource, name: "=[completion]"), .function(methodNames))
      }).first?.stringValue
    {
      names += values.split(separator: "\n").map(String.init)
    }
    for keyword in ["and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
      "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while"]
    {
      names.append(keyword)
    }
    names += [":help", ":quit"]
    if let feature { names += feature.completions() }
    completionSnapshot.withLock { $0 = names }
  }
}
