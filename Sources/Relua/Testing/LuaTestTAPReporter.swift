/// TAP version 13 (Test Anything Protocol): the plan `1..N` first, `ok n - name` /
/// `not ok n - name` with a YAML diagnostic block for failures, `# SKIP` for skipped tests, a
/// test's notes (skipped assertions) as comment lines after it (`# note: …`), and the closing
/// line as a TAP comment (`# N passed, N failed`).
public final class LuaTestTAPReporter: LuaTestReporter {
  private let write: (String) -> Void

  /// `write` receives each line without its newline.
  public init(write: @escaping (String) -> Void) { self.write = write }

  public func begin(testCount: Int) {
    write("TAP version 13")
    write("1..\(testCount)")
  }

  public func report(_ result: LuaTestResult, number: Int) {
    let name = result.name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "#", with: "\\#")
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
        for frame in failure.traceback { write("    - \(Self.quoted(frame))") }
      }
      write("  ...")
    }
    for note in result.notes {
      for (offset, line) in note.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        write(offset == 0 ? "# note: " + line : line.isEmpty ? "#" : "#   " + line)
      }
    }
  }

  public func finish(_ summary: LuaTestSummary) {
    write("# \(summary.closingLine)")
  }

  /// A YAML double-quoted scalar.
  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default:
        if scalar.value < 0x20 { out += "\\x" + String(scalar.value, radix: 16).leftPadded(to: 2) } else { out.unicodeScalars.append(scalar) }
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
