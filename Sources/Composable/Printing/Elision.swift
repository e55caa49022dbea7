/// How much of a value a printout for people shows, and how it says what it left out: the one
/// rule behind every value relua prints (REPL results, `:state`, state diffs, action payloads,
/// test failures, warnings, error messages).
///
/// ```
/// { 1, 2, 3, … 999,997 more }                        -- a table past `items` entries (or `depth`, or `lines`)
/// "abcdefghij…" (100,000 characters, 99,800 not shown)  -- a string past `characters`
/// … 999,990 more changes                             -- a diff past `lines`
/// ```
///
/// Limits bound the work as well as the output: a printer stops at them, so a million-row state
/// prints in the time a screenful takes. `.none` shows everything (`:state --all`).
public struct Elision: Hashable, Sendable {
  /// Entries shown per table (list elements or record fields).
  public var items: Int
  /// Characters (Unicode scalars) shown per string inside a value.
  public var characters: Int
  /// Tables shown nested; deeper ones print as `{ … 3 more }`.
  public var depth: Int
  /// Lines of one printout spanning lines (a value, a diff); on one line, entries in all.
  public var lines: Int
  /// Lines and characters of free text: a message, an error value, a string printed bare.
  /// Larger than a printout's, so that a message wrapping a cut diff is never cut again.
  public var textLines: Int
  /// Characters of free text shown (see `textLines`).
  public var textCharacters: Int

  /// Limits as given (negative ones as 0; `lines` and `textLines` at least 1).
  public init(items: Int, characters: Int, depth: Int, lines: Int, textLines: Int, textCharacters: Int) {
    self.items = max(items, 0)
    self.characters = max(characters, 0)
    self.depth = max(depth, 0)
    self.lines = max(lines, 1)
    self.textLines = max(textLines, 1)
    self.textCharacters = max(textCharacters, 0)
  }

  /// What people see: a screenful.
  public static let standard = Elision(items: 25, characters: 200, depth: 8, lines: 40, textLines: 100, textCharacters: 10_000)

  /// Everything (`:state --all`, `=expr --all`).
  public static let none = Elision(
    items: .max, characters: .max, depth: .max, lines: .max, textLines: .max, textCharacters: .max)

  // MARK: The words (Lua's printer is generated from the same templates)

  /// `… 999,997 more`: entries of a table not shown. `#` stands for the count.
  public static let moreTemplate = "… # more"
  /// `(100,000 characters, 99,800 not shown)`, after a cut string or text. `#` counts in order.
  public static let cutTemplate = "(# characters, # not shown)"
  /// `… 999,990 more changes`: entries of a table that changed, past a diff's lines.
  public static let moreChangesTemplate = "… # more changes"
  /// `… 1,234 more lines`: lines of text not shown.
  public static let moreLinesTemplate = "… # more lines"

  /// `… 999,997 more` for `count` entries not shown.
  public static func more(_ count: Int) -> String { fill(moreTemplate, count) }
  /// `… 999,990 more changes` for `count` changed entries not shown.
  public static func moreChanges(_ count: Int) -> String { fill(moreChangesTemplate, count) }
  /// `… 1,234 more lines` for `count` lines not shown.
  public static func moreLines(_ count: Int) -> String { fill(moreLinesTemplate, count) }
  /// `(100,000 characters, 99,800 not shown)` for a text of `total` characters of which `shown`
  /// are.
  public static func cutNote(total: Int, shown: Int) -> String { fill(cutTemplate, total, total - shown) }

  /// `1234567` as `1,234,567`.
  public static func grouped(_ count: Int) -> String {
    let digits = String(count.magnitude)
    var text = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { text.append(",") }
      text.append(digit)
    }
    return count < 0 ? "-" + text : text
  }

  private static func fill(_ template: String, _ counts: Int...) -> String {
    var counts = counts[...]
    var text = ""
    for character in template {
      if character == "#", let count = counts.popFirst() { text += grouped(count) } else { text.append(character) }
    }
    return text
  }

  // MARK: Cutting

  /// A string inside a value, cut past `characters`: the part shown (a prefix, on a scalar
  /// boundary) and how many characters there were; nil when it is shown whole. Counting stops
  /// early: a megabyte is not walked to show 200 characters of it.
  public func cut(string: String) -> (shown: Substring, total: Int)? {
    // Scalars never outnumber UTF-8 bytes (a native string knows its byte count at once).
    guard string.utf8.count > characters else { return nil }
    let scalars = string.unicodeScalars
    guard let end = scalars.index(scalars.startIndex, offsetBy: characters, limitedBy: scalars.endIndex),
      end != scalars.endIndex
    else { return nil }
    return (Substring(scalars[..<end]), characters + scalars[end...].count)
  }

  /// Text on one line (a value a host dumped), cut past `characters` as a string in a value is:
  /// `abc… (1,200 characters, 1,000 not shown)`.
  public func cut(oneLine text: String) -> String {
    guard let (shown, total) = cut(string: text) else { return text }
    return shown + "… " + Self.cutNote(total: total, shown: characters)
  }

  /// Free text (a message, an error value, a string printed bare), cut past `textLines` lines or
  /// `textCharacters` characters, whichever comes first, saying what was left out:
  /// `… 1,234 more lines` after the last line shown, or `abc… (12,000 characters, 2,000 not shown)`.
  public func cut(text: String) -> String { cut(text, lines: textLines) }

  /// A printout that arrives as text (a dump of a Swift value, its diff), cut as text is but past
  /// `lines` lines.
  public func cut(printout: String) -> String { cut(printout, lines: lines) }

  /// Room for a cut's own note: text is cut only when it runs past a limit by more, so that text
  /// cut once (a message passed on and cut again) stays as it is.
  static let noteRoom = (lines: 1, characters: 64)

  private func cut(_ text: String, lines maxLines: Int) -> String {
    // Newlines counted byte by byte: fast, and a newline's index is a character boundary.
    var lineCount = 1
    var lineEnd: String.Index?
    let bytes = text.utf8
    var index = bytes.startIndex
    while index != bytes.endIndex {
      if bytes[index] == 0x0A {
        if lineCount == maxLines { lineEnd = index }  // the newline ending the last line shown
        lineCount += 1
      }
      index = bytes.index(after: index)
    }
    if lineCount - maxLines <= Self.noteRoom.lines { lineEnd = nil }
    let scalars = text.unicodeScalars
    var characterEnd: String.Index?
    if bytes.count - textCharacters > Self.noteRoom.characters,
      let end = scalars.index(scalars.startIndex, offsetBy: textCharacters, limitedBy: scalars.endIndex),
      scalars[end...].count > Self.noteRoom.characters
    {
      characterEnd = end
    }
    if let lineEnd, characterEnd.map({ lineEnd <= $0 }) ?? true {
      return String(text[..<lineEnd]) + "\n" + Self.moreLines(lineCount - maxLines)
    }
    guard let characterEnd else { return text }
    return String(scalars[..<characterEnd]) + "… " + Self.cutNote(total: scalars.count, shown: textCharacters)
  }
}
