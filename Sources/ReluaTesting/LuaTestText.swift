import Relua

/// Text a test controls (its name, its `describe` names, messages, tracebacks, file names) as the
/// reporters write it: never a raw control character a terminal would act on, and never a line
/// break where a format reads a new record.
///
/// The visible form is Lua's own escapes, which a reader can paste back into a test: `\n`, `\t`,
/// `\r`, `\027` (ESC), `\000` (NUL), `\007` (BEL), `\127` (DEL), and `\u{9B}` for C1 controls
/// and the bidirectional overrides (U+202A–U+202E, U+2066–U+2069: text that reads in another
/// order than it runs).
package enum LuaTestText {
  /// Whether a terminal (or a reader) would take `scalar` as something other than a character:
  /// C0 controls, DEL, C1 controls, bidirectional embeddings, overrides and isolates.
  package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    return value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
      || (0x2066...0x2069).contains(value)
  }

  /// `scalar` as Lua writes it in a string literal.
  package static func luaEscape(_ scalar: Unicode.Scalar) -> String {
    switch scalar {
    case "\n": return "\\n"
    case "\t": return "\\t"
    case "\r": return "\\r"
    default:
      if scalar.value < 0x80 {
        let digits = String(scalar.value)
        return "\\" + String(repeating: "0", count: 3 - digits.count) + digits
      }
      return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }
  }

  /// One line: every control escaped, line breaks and tabs included.
  package static func line(_ text: some StringProtocol) -> String {
    escaped(text, keepingTabs: false)
  }

  /// `text` split at its line breaks, each line with its controls escaped (tabs kept, as
  /// indentation).
  package static func lines(_ text: some StringProtocol) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped($0, keepingTabs: true) }
  }

  static func escaped(_ text: some StringProtocol, keepingTabs: Bool) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return String(text) }
    var out = ""
    for scalar in text.unicodeScalars {
      if isControl(scalar) && !(keepingTabs && scalar == "\t") {
        out += luaEscape(scalar)
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
