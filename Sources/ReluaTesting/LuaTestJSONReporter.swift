import Relua

import Foundation

/// busted's `json` output (`-o json`): one JSON object written when the run finishes,
/// `{"successes": […], "failures": […], "errors": […], "pendings": […], "duration": seconds}`,
/// each entry `{"name", "message", "trace": {"short_src", "currentline", "traceback"}, "file",
/// "duration", "run"}` (`message` and `trace` absent where there is none; `"seed"` at the top when
/// the order was shuffled). A file that failed to load is an error; a failing test is a failure
/// (busted tells a raised error from a failed assertion; relua does not yet).
package final class LuaTestJSONReporter: LuaTestReporter {
  private let write: (String) -> Void
  private let seed: UInt64?
  private var started = ContinuousClock.now

  /// `write` receives the whole document, without a final newline.
  package init(seed: UInt64? = nil, write: @escaping (String) -> Void) {
    self.seed = seed
    self.write = write
  }

  package func begin(testCount: Int) { started = .now }

  package func report(_ result: LuaTestResult, number: Int) {}

  package func finish(_ summary: LuaTestSummary) {
    let elapsed = ContinuousClock.now - started
    var successes: [Any] = [], failures: [Any] = [], errors: [Any] = [], pendings: [Any] = []
    for result in summary.results {
      var entry: [String: Any] = [
        "name": result.name, "file": result.file, "duration": result.duration, "run": result.run,
      ]
      var trace: [String: Any] = [:]
      if let (source, line) = Self.split(result.failure?.location ?? result.location) {
        trace["short_src"] = source
        if let line { trace["currentline"] = line }
      }
      switch result.outcome {
      case .passed:
        successes.append(entry.merging(trace.isEmpty ? [:] : ["trace": trace]) { $1 })
      case .skipped:
        if let reason = result.notes.first(where: { $0.hasPrefix("pending: ") }) {
          entry["message"] = String(reason.dropFirst("pending: ".count))
        }
        if !trace.isEmpty { entry["trace"] = trace }
        pendings.append(entry)
      case .failed(let failure):
        entry["message"] = failure.description
        if !failure.traceback.isEmpty {
          trace["traceback"] = "stack traceback:\n" + failure.traceback.map { "\t" + $0 }.joined(separator: "\n")
        }
        if !trace.isEmpty { entry["trace"] = trace }
        if LuaTestJUnitReporter.isError(result) {
          entry["isError"] = true
          errors.append(entry)
        } else {
          failures.append(entry)
        }
      }
    }
    var document: [String: Any] = [
      "successes": successes, "failures": failures, "errors": errors, "pendings": pendings,
      "duration": Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
    ]
    if let seed { document["seed"] = seed }
    let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data("{}".utf8)
    write(Self.escapingControls(String(decoding: data, as: UTF8.self)))
  }

  /// The document with DEL, the C1 controls and the bidirectional controls, which JSON allows raw
  /// in strings, as `\uXXXX` (the C0 ones JSONSerialization already escapes): a document shown on
  /// a terminal cannot drive it. They can only be inside strings, where the escape means the same.
  static func escapingControls(_ json: String) -> String {
    guard json.unicodeScalars.contains(where: LuaTestText.isControl) else { return json }
    var out = ""
    for scalar in json.unicodeScalars {
      if LuaTestText.isControl(scalar) {
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// `file:line` → (file, line); a text without a line → (text, nil).
  static func split(_ location: String?) -> (String, Int?)? {
    guard let location else { return nil }
    if let colon = location.lastIndex(of: ":"), let line = Int(location[location.index(after: colon)...]) {
      return (String(location[..<colon]), line)
    }
    return (location, nil)
  }
}
