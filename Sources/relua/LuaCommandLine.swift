/// lua.c's command line, as `relua` alone and `relua repl` take it:
///
///     relua [options] [script [args]]
///       -e stat   execute string 'stat'
///       -i        enter interactive mode after executing 'script'
///       -l mod    require library 'mod' into global 'mod'
///       -l g=mod  require library 'mod' into global 'g'
///       -v        show version information
///       --        stop handling options
///       -         stop handling options and execute stdin
///
/// plus relua's own `--trusted`, `--memory-limit N` and `--instruction-limit N` (also as
/// `--option=N`) anywhere before the script. `-e` and `-l` run in the order given, before the
/// script; `-estat` and `-lmod` (attached) work as in lua.c.
struct LuaCommandLine {
  enum Step: Equatable {
    case execute(String)
    case require(global: String, module: String)
  }

  var steps: [Step] = []
  var interactive = false
  var version = false
  /// `--help` or `-h` before the script.
  var help = false
  /// The script (`-` for standard input), and its arguments.
  var script: String?
  var arguments: [String] = []
  var trusted = false
  var memoryLimit: Int?
  var instructionLimit: Int?

  struct Invalid: Error, CustomStringConvertible {
    let description: String
  }

  init(_ words: [String]) throws {
    var index = words.startIndex
    func value(for option: String, attached: String) throws -> String {
      if !attached.isEmpty { return attached }
      guard index < words.endIndex else { throw Invalid(description: "'\(option)' needs an argument") }
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
        let (name, attached) = Self.split(word)
        switch name {
        case "--trusted" where attached == nil: trusted = true
        case "--memory-limit", "--instruction-limit":
          let text = try attached ?? value(for: name, attached: "")
          guard let number = Int(text), number > 0 else { throw Invalid(description: "the value '\(text)' is invalid for '\(name)'") }
          if name == "--memory-limit" { memoryLimit = number } else { instructionLimit = number }
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
      case "-h" where attached.isEmpty: help = true
      default: throw Invalid(description: "unrecognized option '\(word)'")
      }
    }
    // After `--`: the script and its arguments.
    if index < words.endIndex {
      script = words[index]
      arguments = Array(words[(index + 1)...])
    }
  }

  /// `--name=value` → (`--name`, `value`); any other word → (word, nil).
  private static func split(_ word: String) -> (String, String?) {
    guard let equals = word.firstIndex(of: "=") else { return (word, nil) }
    return (String(word[..<equals]), String(word[word.index(after: equals)...]))
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
      --        stop handling options
      -         stop handling options and execute stdin
      --trusted, --memory-limit N, --instruction-limit N   relua's sandbox and limits
    Commands: relua run | repl | test | fake-github | websocket-echo (relua COMMAND --help)
    """
}
