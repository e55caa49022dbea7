import Relua

/// TAP version 13 (Test Anything Protocol): the plan `1..N` first, `ok n - name` /
/// `not ok n - name` with a YAML diagnostic block for failures, `# SKIP` for skipped tests, a
/// test's notes (skipped assertions) as comment lines after it (`# note: …`), and the closing
/// line as a TAP comment (`# N passed, N failed`).
///
/// Whatever a test controls stays where TAP puts it: a name is one line (`\` and `#` escaped as
/// TAP says, control characters and line breaks as Lua escapes: `\n`, `\027`), the message,
/// location and traceback are YAML double-quoted scalars with every character YAML cannot print
/// escaped, and notes are comment lines, each line of them. So a parser (Perl's TAP::Parser,
/// `prove`) reads exactly one result per test, whatever the test is named.
package final class LuaTestTAPReporter: LuaTestReporter {
  private let write: (String) -> Void

  /// `write` receives each line without its newline.
  package init(write: @escaping (String) -> Void) { self.write = write }

  package func begin(testCount: Int) {
    write("TAP version 13")
    write("1..\(testCount)")
  }

  package func report(_ result: LuaTestResult, number: Int) {
    let name = Self.description(result.name)
    switch result.outcome {
    case .passed:
      write("ok \(number) - \(name)")
    case .skipped:
      write("ok \(number) - \(name) # SKIP")
    case .failed(let failure):
      write("not ok \(number) - \(name)")
      write("  ---")
      write("  message: \(Self.quoted(failure.message))")
      if let location = failure.location { write("  at: \(Self.quoted(location))") }
      if !failure.traceback.isEmpty {
        write("  traceback:")
        for frame in failure.traceback { write("    - \(Self.quoted(frame, listItem: true))") }
      }
      write("  ...")
    }
    for note in result.notes {
      for (offset, line) in LuaTestText.lines(note).enumerated() {
        write(offset == 0 ? "# note: " + line : line.isEmpty ? "#" : "#   " + line)
      }
    }
  }

  package func finish(_ summary: LuaTestSummary) {
    write("# \(summary.closingLine)")
  }

  /// A test's description on its `ok` line: `\` and `#` escaped (TAP's `\#`), then every control
  /// character and line break as a Lua escape (`LuaTestText`), on one line.
  static func description(_ name: String) -> String {
    LuaTestText.line(name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "#", with: "\\#"))
  }

  /// A YAML double-quoted scalar on one line: `\\`, `\"`, `\n`, `\t`, `\r`, and every other
  /// character outside YAML's printable set (C0, DEL, C1, U+FFFE/U+FFFF) as `\xXX` or `\uXXXX`;
  /// the bidirectional controls too, which YAML prints but a reader is fooled by.
  ///
  /// `listItem`: also `: ` as `\x3a ` — the same string to YAML, but Perl's TAP::Parser (`prove`)
  /// reads a list item whose first word ends in `:` as a mapping, and a traceback frame
  /// (`"f.lua:3: in function 'g'"`) stopped it, with "does not support multi-line quoted scalars".
  static func quoted(_ text: String, listItem: Bool = false) -> String {
    var out = "\""
    var scalars = text.unicodeScalars.makeIterator()
    var next = scalars.next()
    while let scalar = next {
      next = scalars.next()
      switch scalar {
      case ":" where listItem && (next == " " || next == nil): out += "\\x3a"
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default:
        let value = scalar.value
        if LuaTestText.isControl(scalar) || value == 0xFFFE || value == 0xFFFF {
          out += value < 0x100
            ? "\\x" + String(value, radix: 16).leftPadded(to: 2) : "\\u" + String(value, radix: 16).leftPadded(to: 4)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
