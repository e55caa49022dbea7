import Foundation
import FoundationXML
import Relua
import ReluaTesting

/// `test-report`: bytes as the results of a test run — names, files, messages, tracebacks, notes —
/// rendered by every `relua test` output format, which must stay what it says it is whatever a
/// test is named or raises:
/// - console (plain and symbols): every line written is one line, with no control character but
///   the reporter's own colours; one result line per test;
/// - TAP: the plan, then exactly one `ok`/`not ok` line per test, numbered in order; every other
///   line a YAML block line (each scalar a well-formed double-quoted one, list items that Perl's
///   YAMLish cannot take for a mapping) or a comment; no control character;
/// - json: parses, with as many successes, failures and pendings as there were, names intact;
/// - junit: well-formed XML (Foundation's parser) with one `testcase` per test, and only
///   characters XML 1.0 allows and no terminal controls.
///
/// Input: fields separated by the byte 0xFF (which UTF-8 never holds), six per test: outcome
/// (first byte: 0 passed, 1 failed, 2 skipped, 3 a file that failed to load), name, file,
/// message, traceback (frames one a line), note. Bytes that are not UTF-8 are decoded with U+FFFD.
@MainActor
final class TestReportTarget: FuzzTarget {
  func run(_ input: UnsafeRawBufferPointer) {
    let fields = input.split(separator: 0xFF, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    var results: [LuaTestResult] = []
    var index = 0
    while index < fields.count && results.count < 20 {
      let field = { (offset: Int) in index + offset < fields.count ? fields[index + offset] : "" }
      let kind = field(0).utf8.first.map { Int($0) % 4 } ?? 0
      let name = field(1), file = field(2), message = field(3)
      let traceback = field(4).split(separator: "\n").map(String.init)
      let notes = field(5).isEmpty ? [] : [field(5)]
      let failure = LuaTestFailure(message: message, location: file.isEmpty ? nil : file + ":1", traceback: traceback)
      switch kind {
      case 0: results.append(LuaTestResult(name: name, file: file, outcome: .passed, notes: notes, location: file + ":2"))
      case 1: results.append(LuaTestResult(name: name, file: file, outcome: .failed(failure), notes: notes, location: file + ":3"))
      case 2: results.append(LuaTestResult(name: name, file: file, outcome: .skipped, notes: ["pending: " + message] + notes))
      default: results.append(LuaTestResult(name: file, file: file, outcome: .failed(failure)))
      }
      index += 6
    }
    let summary = LuaTestSummary(results: results)
    checkConsole(summary, style: .plain)
    checkConsole(summary, style: .symbols)
    checkTAP(summary)
    checkJSON(summary)
    checkJUnit(summary)
  }

  private func render(_ reporter: (@escaping (String) -> Void) -> any LuaTestReporter, _ summary: LuaTestSummary) -> [String] {
    var lines: [String] = []
    let reporter = reporter { lines.append($0) }
    reporter.begin(testCount: summary.results.count)
    for (offset, result) in summary.results.enumerated() { reporter.report(result, number: offset + 1) }
    reporter.finish(summary)
    return lines
  }

  private func checkConsole(_ summary: LuaTestSummary, style: LuaTestConsoleReporter.Style) {
    let lines = render({ LuaTestConsoleReporter(style: style, write: $0) }, summary)
    for line in lines {
      var text = line
      if style == .symbols {
        for colour in ["\u{1B}[32m", "\u{1B}[31m", "\u{1B}[33m", "\u{1B}[2m", "\u{1B}[0m"] {
          text = text.replacingOccurrences(of: colour, with: "")
        }
      }
      if let bad = text.unicodeScalars.first(where: { LuaTestText.isControl($0) && $0 != "\t" }) {
        invariantFailed("console (\(style)) wrote control U+\(String(bad.value, radix: 16)) in \(text.debugDescription)")
      }
    }
    if style == .plain {
      // Notes and the failures' details are indented; only a test's own line starts a line so.
      let resultLines = lines.filter { line in ["PASS ", "FAIL ", "SKIP "].contains { line.startsByScalars(with: $0) } }
      if resultLines.count != summary.results.count {
        invariantFailed("console: \(resultLines.count) result lines for \(summary.results.count) tests")
      }
    }
  }

  /// A YAML double-quoted scalar on one line, with only YAML's escapes.
  // Every check here reads by Unicode scalars, as the formats' readers do: by Swift's default
  // (characters), a quote or a space followed by a combining mark is one character, neither a quote
  // nor a space (the fuzzer found `"\u{035E}]]>"`, and a test name starting with U+0640…).
  nonisolated(unsafe) private static let quoted = #/"(?:[^"\\\p{Cc}]|\\[0abtnvfre "/\\N_LP]|\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8})*"/#
    .matchingSemantics(.unicodeScalar)

  private func checkTAP(_ summary: LuaTestSummary) {
    let lines = render({ LuaTestTAPReporter(write: $0) }, summary)
    var numbers: [Int] = []
    var inYAML = false
    for line in lines {
      if line.contains(where: \.isNewline) { invariantFailed("TAP: a written line holds a line break: \(line.debugDescription)") }
      // A comment (notes, what tests print) keeps its tabs, as indentation; nothing else does.
      if let bad = line.unicodeScalars.first(where: { LuaTestText.isControl($0) && !(line.startsByScalars(with: "#") && $0 == "\t") }) {
        invariantFailed("TAP: control U+\(String(bad.value, radix: 16)) in \(line.debugDescription)")
      }
      if inYAML {
        if line == "  ..." { inYAML = false; continue }
        if line == "  traceback:" { continue }
        if let match = line.wholeMatch(of: #/  (message|at): (.*)/#.matchingSemantics(.unicodeScalar)) {
          if match.2.wholeMatch(of: Self.quoted) == nil { invariantFailed("TAP: not a YAML scalar: \(line.debugDescription)") }
          continue
        }
        if let match = line.wholeMatch(of: #/    - (.*)/#.matchingSemantics(.unicodeScalar)) {
          if match.1.wholeMatch(of: Self.quoted) == nil { invariantFailed("TAP: not a YAML scalar: \(line.debugDescription)") }
          // Perl's YAMLish reads `- WORD: …` as a mapping.
          if line.firstMatch(of: #/^    - \S+\s*:(\s|$)/#.matchingSemantics(.unicodeScalar)) != nil { invariantFailed("TAP: a list item YAMLish reads as a mapping: \(line.debugDescription)") }
          continue
        }
        invariantFailed("TAP: unexpected line in a YAML block: \(line.debugDescription)")
      }
      if line == "  ---" {
        inYAML = true
        continue
      }
      if let match = line.firstMatch(of: #/^(?:not )?ok (\d+)(?: |$)/#.matchingSemantics(.unicodeScalar)) {
        numbers.append(Int(match.1)!)
        continue
      }
      if line == "TAP version 13" || line == "1..\(summary.results.count)" || line.startsByScalars(with: "#") { continue }
      invariantFailed("TAP: a line that is not TAP: \(line.debugDescription)")
    }
    if inYAML { invariantFailed("TAP: a YAML block not closed") }
    if numbers != Array(1...max(1, summary.results.count)).prefix(summary.results.count).map({ $0 }) {
      invariantFailed("TAP: result numbers \(numbers) for \(summary.results.count) tests")
    }
  }

  private func checkJSON(_ summary: LuaTestSummary) {
    let document = render({ LuaTestJSONReporter(write: $0) }, summary).joined()
    if let bad = document.unicodeScalars.first(where: LuaTestText.isControl) {
      invariantFailed("json: control U+\(String(bad.value, radix: 16)) written raw")
    }
    guard let object = try? JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any] else {
      invariantFailed("json: the document does not parse: \(document.prefix(500).debugDescription)")
    }
    let names = ["successes", "failures", "errors", "pendings"].flatMap { key in
      ((object[key] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
    }
    if names.count != summary.results.count || Set(names) != Set(summary.results.map(\.name)) {
      invariantFailed("json: the names read back differ (\(names.count) for \(summary.results.count))")
    }
  }

  private func checkJUnit(_ summary: LuaTestSummary) {
    let document = render({ LuaTestJUnitReporter(write: $0) }, summary).joined()
    for scalar in document.unicodeScalars {
      let value = scalar.value
      let allowed = value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
        || (0xE000...0xFFFD).contains(value) || value >= 0x10000
      if !allowed || (LuaTestText.isControl(scalar) && !["\t", "\n", "\r"].contains(scalar)) {
        invariantFailed("junit: U+\(String(value, radix: 16)) in the document")
      }
    }
    let counter = ElementCounter()
    let parser = XMLParser(data: Data(document.utf8))
    parser.delegate = counter
    if !parser.parse() {
      invariantFailed("junit: not well-formed XML (\(parser.parserError.map { "\($0)" } ?? "?")): \(document.prefix(500).debugDescription)")
    }
    if counter.testcases != summary.results.count {
      invariantFailed("junit: \(counter.testcases) testcases for \(summary.results.count) tests")
    }
  }
}

private final class ElementCounter: NSObject, XMLParserDelegate {
  var testcases = 0
  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    if elementName == "testcase" { testcases += 1 }
  }
}

extension StringProtocol {
  /// `hasPrefix` by Unicode scalars: a prefix followed by a combining mark still counts.
  func startsByScalars(with prefix: String) -> Bool { unicodeScalars.starts(with: prefix.unicodeScalars) }
}
