import Relua

import Foundation

/// busted's `junit` output (`-o junit`): JUnit XML written when the run finishes —
/// `<testsuites tests errors failures skip time>` holding one `<testsuite name="Run i of N">` per
/// run (`--repeat`), each `<testcase classname="file:line" name="full name" time>` with a
/// `<failure message="…">` (the message, then the traceback), an `<error>` for a file that failed
/// to load, or a `<skipped>`; text and attributes XML-escaped, characters XML 1.0 cannot hold (and
/// the controls a terminal acts on) written as Lua escapes, `\027` (see `escape`).
package final class LuaTestJUnitReporter: LuaTestReporter {
  private let write: (String) -> Void
  private let seed: UInt64?
  private let runs: Int
  private var started = ContinuousClock.now
  private var timestamp = Date()

  /// `write` receives the whole document, without a final newline.
  package init(runs: Int = 1, seed: UInt64? = nil, write: @escaping (String) -> Void) {
    self.runs = max(1, runs)
    self.seed = seed
    self.write = write
  }

  package func begin(testCount: Int) {
    started = .now
    timestamp = Date()
  }

  package func report(_ result: LuaTestResult, number: Int) {}

  package func finish(_ summary: LuaTestSummary) {
    let elapsed = ContinuousClock.now - started
    let total = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    let stamp = formatter.string(from: timestamp).replacingOccurrences(of: "Z", with: "")
    func counts(_ results: [LuaTestResult]) -> String {
      let errors = results.filter(Self.isError).count
      let failures = results.filter { $0.failure != nil }.count - errors
      let skipped = results.filter { $0.outcome == .skipped }.count
      return "tests=\"\(results.count)\" errors=\"\(errors)\" failures=\"\(failures)\" skip=\"\(skipped)\""
    }
    var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
    lines.append("<testsuites \(counts(summary.results)) time=\"\(Self.seconds(total))\">")
    for run in 1...runs {
      let results = summary.results.filter { $0.run == run }
      let time = results.reduce(0) { $0 + $1.duration }
      lines.append(
        "  <testsuite name=\"Run \(run) of \(runs)\" \(counts(results)) time=\"\(Self.seconds(time))\" timestamp=\"\(stamp)\">")
      if let seed {
        lines.append("    <properties><property name=\"seed\" value=\"\(seed)\"/></properties>")
      }
      for result in results {
        let classname = result.location ?? result.file
        let open = "    <testcase classname=\"\(Self.escape(classname))\" name=\"\(Self.escape(result.name))\" time=\"\(Self.seconds(result.duration))\""
        switch result.outcome {
        case .passed:
          lines.append(open + "/>")
        case .skipped:
          let reason = result.notes.first { $0.hasPrefix("pending: ") }.map { String($0.dropFirst("pending: ".count)) }
          lines.append(open + ">")
          lines.append("      <skipped" + (reason.map { " message=\"\(Self.escape($0))\"" } ?? "") + "/>")
          lines.append("    </testcase>")
        case .failed(let failure):
          let element = Self.isError(result) ? "error" : "failure"
          var text = failure.description
          if !failure.traceback.isEmpty {
            text += "\nstack traceback:\n" + failure.traceback.map { "\t" + $0 }.joined(separator: "\n")
          }
          let firstLine = failure.description.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
          lines.append(open + ">")
          lines.append("      <\(element) message=\"\(Self.escape(firstLine))\">\(Self.escape(text, attribute: false))</\(element)>")
          lines.append("    </testcase>")
        }
      }
      lines.append("  </testsuite>")
    }
    lines.append("</testsuites>")
    write(lines.joined(separator: "\n"))
  }

  /// A file that failed to load (its result is named after it and has no declaration line).
  static func isError(_ result: LuaTestResult) -> Bool {
    result.failure != nil && result.name == result.file && result.location == nil
  }

  static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

  /// Text safe in XML content and attribute values: `& < > " '` as entities, tab, newline and
  /// carriage return as character references in attributes (where they would be normalised away),
  /// as is in text; the other controls — which XML 1.0 cannot hold even as references (C0), or
  /// which a terminal acts on (DEL, C1, bidirectional) — and U+FFFE/U+FFFF as their Lua escapes
  /// (`\027`, `\u{9B}`, `\u{FFFE}`): visible, and the document stays well-formed.
  static func escape(_ text: String, attribute: Bool = true) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\n": out += attribute ? "&#10;" : "\n"
      case "\r": out += "&#13;"
      case "\t": out += attribute ? "&#9;" : "\t"
      default:
        let value = scalar.value
        if LuaTestText.isControl(scalar) || (0xFFFE...0xFFFF).contains(value) {
          out += LuaTestText.luaEscape(scalar)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }
}
