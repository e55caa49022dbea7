import Foundation
import Lua

/// lua.c's command line, as `relua` alone and `relua repl` take it:
///
///     relua [options] [script [args]]
///       -e stat   execute string 'stat'
///       -i        enter interactive mode after executing 'script'
///       -l mod    require library 'mod' into global 'mod'
///       -l g=mod  require library 'mod' into global 'g'
///       -v        show version information
///       -E        ignore environment variables
///       -W        turn warnings on
///       --        stop handling options
///       -         stop handling options and execute stdin
///
/// plus relua's own `--trusted`, `--memory-limit N` and `--instruction-limit N` (also as
/// `--option=N`) anywhere before the script. `-e` and `-l` run in the order given, before the
/// script; `-estat` and `-lmod` (attached) work as in lua.c. `--help` shows the usage; `-h` is
/// an unknown option, as in lua.c.
struct LuaCommandLine {
  enum Step: Equatable {
    case execute(String)
    case require(global: String, module: String)

    /// The step as a Lua chunk: its source, its name in errors, and its arguments (`...`).
    var chunk: Chunk {
      switch self {
      case .execute(let source): return Chunk(source: source, name: "=(command line)", arguments: [])
      case .require(let global, let module):
        return Chunk(source: "local g, m = ...; rawset(_G, g, require(m))", name: "=(command line)", arguments: [global, module])
      }
    }
  }

  struct Chunk {
    var source: String
    var name: String
    var arguments: [String]
  }

  /// lua.c's `LUA_INIT_5_4`, else `LUA_INIT` (none under `-E`), as a chunk (`@file` runs that file); for trusted
  /// states only (a sandboxed one reads no environment).
  static func initialization() -> Chunk? {
    let environment = ProcessInfo.processInfo.environment
    guard let text = environment["LUA_INIT_\(LuaVersion.number / 100)_\(LuaVersion.number % 100)"] ?? environment["LUA_INIT"]
    else { return nil }
    if text.hasPrefix("@") { return Chunk(source: "dofile(...)", name: "=LUA_INIT", arguments: [String(text.dropFirst())]) }
    return Chunk(source: text, name: "=LUA_INIT", arguments: [])
  }

  /// `LUA_INIT` as a chunk when the state is trusted and `-E` was not given.
  var initialization: Chunk? { own.trusted && !ignoresEnvironment ? Self.initialization() : nil }

  /// The options as a state's: the sandbox and limits, lua.c's warnings (off until `-W`) and `-E`.
  func luaOptions(scriptRoots: [String]) -> LuaOptions {
    var options = LuaOptions(
      trusted: own.trusted, memoryLimit: own.memoryLimit, instructionLimit: own.instructionLimit, scriptRoots: scriptRoots)
    options.warnsByDefault = warnings
    options.ignoresEnvironment = ignoresEnvironment
    options.interruptsAreCatchable = true
    options.namesErrorObjectsByType = true
    return options
  }

  /// `-v`: lua.c's line, relua's name first; written at once, before what `-e` prints.
  static func printVersion() {
    let copyright = LuaVersion.copyright.replacing(LuaVersion.release, with: "", maxReplacements: 1)
    FileHandle.standardOutput.write(Data("relua (\(LuaVersion.release))\(copyright)\n".utf8))
  }

  var steps: [Step] = []
  var interactive = false
  var version = false
  /// `-E`: no LUA_INIT, LUA_PATH or LUA_CPATH.
  var ignoresEnvironment = false
  /// `-W`: warnings on from the start (lua.c starts with them off).
  var warnings = false
  /// `--help` before the script.
  var help = false
  /// The script (`-` for standard input), and its arguments.
  var script: String?
  var arguments: [String] = []
  /// relua's own `--trusted`, `--memory-limit`, `--instruction-limit`.
  var own = OwnOptions()

  typealias Invalid = OwnOptions.Invalid

  init(_ words: [String]) throws {
    try parse(words)
    for (name, limit) in [("--memory-limit", own.memoryLimit), ("--instruction-limit", own.instructionLimit)] {
      if let limit, limit <= 0 { throw Invalid(description: "\(name) must be positive") }
    }
  }

  private mutating func parse(_ words: [String]) throws {
    var index = words.startIndex
    func value(for option: String, attached: String) throws -> String {
      if !attached.isEmpty { return attached }
      // (As lua.c: a next word that is an option is not taken as the value.)
      guard index < words.endIndex, !words[index].hasPrefix("-") else {
        throw Invalid(description: "'\(option)' needs an argument")
      }
      defer { index += 1 }
      return words[index]
    }
    while index < words.endIndex {
      let word = words[index]
      index += 1
      if word == "--" {
        break
      }
      if word == "-" {
        script = "-"
        arguments = Array(words[index...])
        return
      }
      if word.hasPrefix("--") {
        let taken = try own.take(word) {
          guard index < words.endIndex else { return nil }
          defer { index += 1 }
          return words[index]
        }
        if taken { continue }
        switch word {
        case "--version": version = true
        case "--help": help = true
        default: throw Invalid(description: "unrecognized option '\(word)'")
        }
        continue
      }
      guard word.hasPrefix("-"), word.count >= 2 else {
        script = word
        arguments = Array(words[index...])
        return
      }
      let option = String(word.prefix(2))
      let attached = String(word.dropFirst(2))
      switch option {
      case "-e":
        steps.append(.execute(try value(for: "-e", attached: attached)))
      case "-l":
        let spec = try value(for: "-l", attached: attached)
        if let equals = spec.firstIndex(of: "=") {
          steps.append(.require(global: String(spec[..<equals]), module: String(spec[spec.index(after: equals)...])))
        } else {
          steps.append(.require(global: spec, module: spec))
        }
      case "-i" where attached.isEmpty: interactive = true
      case "-v" where attached.isEmpty: version = true
      case "-E" where attached.isEmpty: ignoresEnvironment = true
      case "-W" where attached.isEmpty: warnings = true
      default: throw Invalid(description: "unrecognized option '\(word)'")
      }
    }
    // After `--`: the script and its arguments.
    if index < words.endIndex {
      script = words[index]
      arguments = Array(words[(index + 1)...])
    }
  }

  /// lua.c's usage text, with relua's own options.
  static let usage = """
    usage: relua [options] [script [args]]
    Available options are:
      -e stat   execute string 'stat'
      -i        enter interactive mode after executing 'script'
      -l mod    require library 'mod' into global 'mod'
      -l g=mod  require library 'mod' into global 'g'
      -v        show version information
      -E        ignore environment variables
      -W        turn warnings on
      --        stop handling options
      -         stop handling options and execute stdin
      --trusted, --memory-limit N, --instruction-limit N   relua's sandbox and limits
    Commands: relua run | repl | test | fake-github | websocket-echo (relua COMMAND --help)
    """
}
