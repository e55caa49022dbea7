import Relua

import Foundation
import Lua

/// A coverage as an lcov tracefile (`relua test --coverage`): per Lua file the tests ran, every
/// line holding code with the times it ran — 0 for lines that never did — in geninfo's format,
/// which genhtml, `lcov --summary` and coverage services read.
///
/// Files are the ones the host loaded itself — test files, what `require` found — and nothing a
/// script named (`LuaCoverage` counts no other chunk); with `roots`, only those inside one of them
/// (a file elsewhere is left out unread, said in `skipped`). A path under `directory` is written
/// relative to it (genhtml opens it from there), others as they are. The lines holding code are
/// the Lua VM's (`LuaCoverage.codeLines(ofFile:)`), read from the files as they are when the
/// report is made; a count for any other line is dropped. A file that can no longer be read or
/// compiled is left out, and said in `skipped`.
package struct LuaTestCoverageReport {
  package struct File: Equatable {
    /// As written on the `SF:` line.
    package var path: String
    /// Every line holding code, in order, with the times it ran.
    package var lines: [(line: Int, hits: Int)]

    package var linesFound: Int { lines.count }
    package var linesHit: Int { lines.count(where: { $0.hits > 0 }) }

    package static func == (a: File, b: File) -> Bool {
      a.path == b.path && a.lines.elementsEqual(b.lines) { $0.line == $1.line && $0.hits == $1.hits }
    }
  }

  /// The directories a run's tests load files from: the current directory (trusted tests'
  /// `package.path`, `./src/…`), and each test file's `require` roots (its directory, `Scripts`).
  package static func roots(ofTestFiles files: [String], extra: [String] = []) -> [String] {
    var seen = Set<String>()
    return ([FileManager.default.currentDirectoryPath] + files.flatMap(LuaTestDiscovery.scriptRoots(for:)) + extra)
      .filter { seen.insert($0).inserted }
  }

  /// Sorted by path.
  package var files: [File]
  /// Files left out: the path, and why.
  package var skipped: [(path: String, reason: String)]

  /// The report of `coverage`'s files, paths relative to `directory` where they are inside it;
  /// with `roots`, a file outside every root is left out (and said in `skipped`).
  package init(
    _ coverage: LuaCoverage, relativeTo directory: String = FileManager.default.currentDirectoryPath,
    roots: [String]? = nil
  ) {
    let base = URL(fileURLWithPath: directory).standardizedFileURL.path
    let roots = roots?.map { URL(fileURLWithPath: $0, relativeTo: URL(fileURLWithPath: base, isDirectory: true)).standardizedFileURL.path }
    // One file may be reached by two chunk names (a test file by its relative path, a module by
    // a root's absolute one): merged by the path they resolve to.
    var byPath: [String: (absolute: String, hits: [Int: Int])] = [:]
    for (chunk, hits) in coverage.counts() where chunk.hasPrefix("@") {
      let name = String(chunk.dropFirst())
      let absolute = URL(fileURLWithPath: name, relativeTo: URL(fileURLWithPath: base, isDirectory: true))
        .standardizedFileURL.path
      let path = absolute.hasPrefix(base + "/") ? String(absolute.dropFirst(base.count + 1)) : absolute
      byPath[path, default: (absolute, [:])].hits.merge(hits, uniquingKeysWith: +)
    }
    var files: [File] = []
    var skipped: [(String, String)] = []
    for (path, entry) in byPath.sorted(by: { $0.key < $1.key }) {
      if let roots, !roots.contains(where: { entry.absolute == $0 || entry.absolute.hasPrefix($0 == "/" ? "/" : $0 + "/") }) {
        skipped.append((path, "outside the directories tests load from (not read)"))
        continue
      }
      if path.contains(where: \.isNewline) {
        skipped.append((path, "its name holds a line break, which a tracefile's SF: line cannot"))
        continue
      }
      let code: [Int]
      do {
        code = try LuaCoverage.codeLines(ofFile: entry.absolute)
      } catch {
        skipped.append((path, error.description))
        continue
      }
      // The VM's lines only: a line hook reports active lines, so a count elsewhere did not come
      // from this file.
      files.append(File(path: path, lines: code.map { ($0, entry.hits[$0] ?? 0) }))
    }
    self.files = files
    self.skipped = skipped
  }

  package var linesFound: Int { files.reduce(0) { $0 + $1.linesFound } }
  package var linesHit: Int { files.reduce(0) { $0 + $1.linesHit } }

  /// The tracefile: per file `TN:`, `SF:path`, `DA:line,hits` for each line holding code, `LF:`
  /// (lines found), `LH:` (lines hit), `end_of_record`.
  package var lcov: String {
    var text = ""
    for file in files {
      text += "TN:\nSF:\(file.path)\n"
      for (line, hits) in file.lines { text += "DA:\(line),\(hits)\n" }
      text += "LF:\(file.linesFound)\nLH:\(file.linesHit)\nend_of_record\n"
    }
    return text
  }

  /// `Coverage: 91.5% of 670 lines (613 run) in 18 files`.
  package var summary: String {
    let found = linesFound
    let percent = found == 0 ? 0 : Double(linesHit) * 100 / Double(found)
    return "Coverage: \(String(format: "%.1f", percent))% of \(found) lines (\(linesHit) run) in \(files.count) file"
      + (files.count == 1 ? "" : "s")
  }
}
