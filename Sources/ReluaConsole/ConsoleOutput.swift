import Foundation

/// Where the REPL writes: standard output and error (above the line being edited, when something
/// is written while the user types: see `LineReader.write`), with colour only on a terminal and
/// when `NO_COLOR` is unset.
package struct ConsoleOutput: Sendable {
  package var useColor: Bool
  package var write: @Sendable (String) -> Void
  package var writeError: @Sendable (String) -> Void

  package init(
    useColor: Bool = isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil,
    write: @escaping @Sendable (String) -> Void = { LineReader.write($0) },
    writeError: @escaping @Sendable (String) -> Void = { LineReader.write($0, toError: true) }
  ) {
    self.useColor = useColor
    self.write = write
    self.writeError = writeError
  }

  enum Style: String {
    case dim = "2", red = "31", green = "32", yellow = "33", cyan = "36", bold = "1"
  }

  func styled(_ text: String, _ style: Style) -> String {
    useColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
  }

  /// A diff with `−` lines red and `+` lines green.
  func diff(_ text: String) -> String {
    guard useColor else { return text }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
      let trimmed = line.drop { $0 == " " }
      if trimmed.hasPrefix("−") { return styled(String(line), .red) }
      if trimmed.hasPrefix("+") { return styled(String(line), .green) }
      return String(line)
    }.joined(separator: "\n")
  }
}
