/// The words after FILE in `relua run FILE …`: the script's arguments, among which relua still
/// takes its own limit and sandbox options (`--instruction-limit N`, `--memory-limit BYTES`,
/// `--trusted`, also as `--option=value`) up to a `--`. Everything after the `--` is the script's,
/// so a script can still be given such text. (ArgumentParser hands the words after FILE over
/// untouched; without this, `relua run spin.lua --instruction-limit 1000` ran unlimited.)
struct ScriptArguments {
  var script: [String] = []
  var trusted = false
  var memoryLimit: Int?
  var instructionLimit: Int?

  struct Invalid: Error, CustomStringConvertible {
    let description: String
  }

  /// `endedOptions`: a `--` already came before FILE (relua's options ended there).
  init(_ words: [String], endedOptions: Bool = false) throws {
    guard !endedOptions else {
      script = words
      return
    }
    var index = words.startIndex
    while index < words.endIndex {
      let word = words[index]
      index += 1
      if word == "--" {
        script += words[index...]
        return
      }
      let (name, attached) = Self.split(word)
      switch name {
      case "--trusted" where attached == nil:
        trusted = true
      case "--memory-limit", "--instruction-limit":
        guard let text = attached ?? (index < words.endIndex ? words[index] : nil) else {
          throw Invalid(description: "missing value for '\(name)'")
        }
        if attached == nil { index += 1 }
        guard let number = Int(text) else { throw Invalid(description: "the value '\(text)' is invalid for '\(name)'") }
        if name == "--memory-limit" { memoryLimit = number } else { instructionLimit = number }
      default:
        script.append(word)
      }
    }
  }

  /// `--name=value` → (`--name`, `value`); any other word → (word, nil).
  private static func split(_ word: String) -> (String, String?) {
    guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
    return (String(word[..<equals]), String(word[word.index(after: equals)...]))
  }
}
