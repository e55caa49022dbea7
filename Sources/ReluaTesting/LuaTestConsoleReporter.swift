import Relua

/// Human-readable progress: one line per test, the failures again in detail, then the closing
/// line `N passed, N failed[, N skipped]`.
///
/// `.symbols` (for terminals): `✓ name`, `✗ name`, `- name (skipped)`, coloured.
/// `.plain` (pipes, `NO_COLOR`): `PASS name`, `FAIL name`, `SKIP name`, ASCII only.
/// A test's notes (skipped assertions) follow its line, indented: `note: …` (dimmed).
/// What tests control (names, messages, tracebacks) is written with its control characters as
/// Lua escapes (`\027`, `\n` in a name): a test cannot move the cursor, recolour the terminal or
/// add a line that looks like another test's (`LuaTestText`).
package final class LuaTestConsoleReporter: LuaTestReporter {
  package enum Style: Sendable { case symbols, plain }

  private let style: Style
  private let write: (String) -> Void

  /// `write` receives each line without its newline.
  package init(style: Style, write: @escaping (String) -> Void) {
    self.style = style
    self.write = write
  }

  package func begin(testCount: Int) {}

  package func report(_ result: LuaTestResult, number: Int) {
    let name = LuaTestText.line(result.name)
    switch (result.outcome, style) {
    case (.passed, .symbols): write("\(Self.green)✓\(Self.reset) \(name)")
    case (.failed, .symbols): write("\(Self.red)✗ \(name)\(Self.reset)")
    case (.skipped, .symbols): write("\(Self.yellow)- \(name) (skipped)\(Self.reset)")
    case (.passed, .plain): write("PASS \(name)")
    case (.failed, .plain): write("FAIL \(name)")
    case (.skipped, .plain): write("SKIP \(name)")
    }
    for note in result.notes {
      let lines = LuaTestText.lines(note)
      for (offset, line) in lines.enumerated() {
        let text = offset == 0 ? "    note: " + line : line.isEmpty ? "" : "          " + line
        write(style == .symbols ? Self.dim + text + Self.reset : text)
      }
    }
  }

  package func finish(_ summary: LuaTestSummary) {
    let failures = summary.results.filter { $0.failure != nil }
    if !failures.isEmpty {
      write("")
      write("Failures:")
      for (offset, result) in failures.enumerated() {
        guard let failure = result.failure else { continue }
        write("")
        write("\(offset + 1)) \(LuaTestText.line(result.name))")
        for line in LuaTestText.lines(failure.description) {
          write("   \(line)")
        }
        if !failure.traceback.isEmpty {
          write("   stack traceback:")
          for frame in failure.traceback { write("     \(LuaTestText.line(frame))") }
        }
      }
    }
    write("")
    write(summary.closingLine)
  }

  private static let green = "\u{1B}[32m", red = "\u{1B}[31m", yellow = "\u{1B}[33m", dim = "\u{1B}[2m", reset = "\u{1B}[0m"
}
