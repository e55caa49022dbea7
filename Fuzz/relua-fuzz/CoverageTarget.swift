import Foundation
import Lua
import Relua
import ReluaTesting

/// `coverage`: bytes as a file the host loads and chunks a script names, counted by a state with
/// line coverage and written as an lcov tracefile (`relua test --coverage`). Invariants: the
/// tracefile names only the file the host loaded — never a chunk a script (or the host's own
/// `load`) named `@path` — and never reads another (`skipped` names no other path); it is
/// well-formed lcov (`TN:`, `SF:`, `DA:line,hits` in rising line order, `LF`/`LH` matching them,
/// `end_of_record`), one line per record, whatever the names hold.
///
/// Input: fields separated by 0xFF: the file's name (kept to letters, digits, `_`, `-`, `.`,
/// space and control bytes, at most 40), its source, then pairs (chunk name, source) that the
/// file's state loads with the script's `load` (odd pairs: the host's `load`), runs and counts.
/// Each state may run 200,000 instructions.
@MainActor
final class CoverageTarget: FuzzTarget {
  private let directory: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("relua-fuzz-coverage-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  func run(_ input: UnsafeRawBufferPointer) {
    let fields = input.split(separator: 0xFF, omittingEmptySubsequences: false).map { Array($0) }
    let nameBytes = (fields.first ?? []).filter { byte in
      byte < 0x20 ? byte != 0 : (byte < 0x80 && (Character(UnicodeScalar(byte)).isLetter || Character(UnicodeScalar(byte)).isNumber || "_-. ".utf8.contains(byte)))
    }.prefix(40)
    let fileName = "f" + String(decoding: nameBytes, as: UTF8.self) + ".lua"
    let file = directory.appendingPathComponent(fileName)
    // Every other file of the directory, from earlier inputs, is gone: only this one may appear.
    for old in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
      try? FileManager.default.removeItem(at: directory.appendingPathComponent(old))
    }
    guard FileManager.default.createFile(atPath: file.path, contents: Data(fields.count > 1 ? fields[1] : [])) else { return }
    defer { try? FileManager.default.removeItem(at: file) }

    let coverage = LuaCoverage()
    guard let state = try? LuaState(options: LuaOptions(
      memoryLimit: 64 << 20, instructionLimit: 200_000, scriptRoots: [directory.path], coverage: coverage))
    else { invariantFailed("cannot make a Lua state") }
    if let chunk = try? state.load(file: file.path) { _ = try? state.call(chunk) }
    var pair = 2, count = 0
    while pair + 1 < fields.count && count < 16 {
      let name = String(decoding: fields[pair], as: UTF8.self), source = fields[pair + 1]
      if count % 2 == 0 {
        // The script's own load, given the name.
        if let loader = try? state.load("local src, name = ...; local f = load(src, name); if f then pcall(f) end", name: "=fuzz") {
          _ = try? state.call(loader, .text(String(decoding: source, as: UTF8.self)), .text(name))
        }
      } else if let chunk = try? source.withUnsafeBytes({ try state.load(bytes: $0, name: "@" + name) }) {
        _ = try? state.call(chunk)
      }
      pair += 2
      count += 1
    }
    state.close()

    let report = LuaTestCoverageReport(coverage, relativeTo: directory.path, roots: [directory.path])
    let allowed: Set<String> = [fileName]
    for (path, _) in report.skipped where !allowed.contains(path) {
      invariantFailed("coverage: the report opened or named \(path.debugDescription), which the host never loaded")
    }
    let lcov = report.lcov
    var expecting = "TN:"
    var lastLine = 0, found = 0, hit = 0
    for line in lcov.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      switch expecting {
      case "TN:":
        guard line == "TN:" else { invariantFailed("lcov: \(line.debugDescription) where TN: goes") }
        expecting = "SF:"
      case "SF:":
        guard line.startsByScalars(with: "SF:"), allowed.contains(String(line.unicodeScalars.dropFirst(3))) else {
          invariantFailed("lcov: \(line.debugDescription): a file the host did not load")
        }
        (lastLine, found, hit) = (0, 0, 0)
        expecting = "DA:"
      default:
        if let match = line.wholeMatch(of: #/DA:(\d+),(\d+)/#.matchingSemantics(.unicodeScalar)) {
          let number = Int(match.1)!
          if number <= lastLine { invariantFailed("lcov: DA lines out of order: \(lcov.debugDescription)") }
          lastLine = number
          found += 1
          if Int(match.2)! > 0 { hit += 1 }
        } else if line == "LF:\(found)" || line == "LH:\(hit)" {
          continue
        } else if line == "end_of_record" {
          expecting = "TN:"
        } else {
          invariantFailed("lcov: unexpected line \(line.debugDescription) in \(lcov.debugDescription)")
        }
      }
    }
    if expecting != "TN:" || (!lcov.isEmpty && !lcov.hasSuffix("end_of_record\n")) {
      invariantFailed("lcov: a record not closed: \(lcov.debugDescription)")
    }
  }
}
