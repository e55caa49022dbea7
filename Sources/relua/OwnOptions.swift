/// relua's own options among a script's words (`--trusted`, `--memory-limit N`,
/// `--instruction-limit N`, also as `--option=N`), as `relua run FILE …` and lua.c's command line
/// (`relua [options] [script]`) take them.
struct OwnOptions {
  var trusted = false
  var memoryLimit: Int?
  var instructionLimit: Int?

  struct Invalid: Error, CustomStringConvertible {
    let description: String
  }

  /// Takes `word` if it is one of relua's options (its value from `attached` or `next()`);
  /// false for any other word.
  mutating func take(_ word: String, next: () -> String?) throws -> Bool {
    let (name, attached) = Self.split(word)
    switch name {
    case "--trusted" where attached == nil:
      trusted = true
    case "--memory-limit", "--instruction-limit":
      guard let text = attached ?? next() else { throw Invalid(description: "missing value for '\(name)'") }
      guard let number = Int(text) else { throw Invalid(description: "the value '\(text)' is invalid for '\(name)'") }
      if name == "--memory-limit" { memoryLimit = number } else { instructionLimit = number }
    default:
      return false
    }
    return true
  }

  /// `--name=value` → (`--name`, `value`); any other word → (word, nil).
  static func split(_ word: String) -> (String, String?) {
    guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
    return (String(word[..<equals]), String(word[word.index(after: equals)...]))
  }
}
