import Foundation
import XCTest

/// `relua test --coverage` and `--coverage-output FILE`: the lcov tracefile of a small feature and
/// its spec, line by line; and genhtml (Debian's lcov) reading it, when it is installed.
final class TestCommandCoverageTests: XCTestCase {
  /// A repository laid out as relua's: a feature in Scripts/Features, its spec in Scripts/Tests.
  private func project() throws -> ScriptDirectory {
    let dir = try ScriptDirectory()
    try dir.write("Scripts/Features/Tally.lua", """
      local relua = require "relua"
      local feature, on = relua.feature, relua.on

      local Tally = feature "Tally" {
        state = { count = 0 },
        actions = { add = "integer", reset = {} },
        reduce = on {
          add = function(s, n)
            if n < 0 then
              s.count = 0
            else
              s.count = s.count + n
            end
          end,
          reset = function(s) s.count = 0 end,
        },
      }

      -- Never called by the tests: its line stays at 0.
      function Tally.label(s)
        return "tally " .. s.count
      end

      return Tally
      """)
    try dir.write("Scripts/Tests/tally_spec.lua", """
      local relua = require "relua"
      local Tally = require "Features.Tally"

      describe("Tally", function()
        it("adds", function()
          local store = relua.TestStore(Tally)
          store:send("add", 2, function(s) s.count = 2 end)
          store:send("add", 3, function(s) s.count = 5 end)
        end)

        it("resets", function()
          local store = relua.TestStore(Tally)
          store:send("reset")
        end)
      end)
      """)
    return dir
  }

  /// The feature's record. Each of the two tests runs in a state of its own that requires the
  /// feature: its main chunk's lines ran twice. A statement spanning lines counts its first line
  /// again when the call it makes runs (4, 7); a function's `end` line counts its closure being
  /// made and each return (14: 2 + 2 adds; 15: 2 + 1 reset). The negative branch (10) and
  /// `label` (21) never ran; comments and blank lines (3, 18, 19) hold no code and are not listed.
  private let tallyRecord = """
    TN:
    SF:Scripts/Features/Tally.lua
    DA:1,2
    DA:2,2
    DA:4,4
    DA:5,2
    DA:6,2
    DA:7,4
    DA:9,2
    DA:10,0
    DA:12,2
    DA:14,4
    DA:15,3
    DA:16,2
    DA:20,2
    DA:21,0
    DA:22,2
    DA:24,2
    LF:16
    LH:14
    end_of_record

    """

  /// lcov records by their `SF:` path.
  private func records(_ tracefile: String) -> [String: String] {
    var records: [String: String] = [:]
    for record in tracefile.components(separatedBy: "end_of_record\n") where !record.isEmpty {
      let path = record.split(separator: "\n").first { $0.hasPrefix("SF:") }.map { String($0.dropFirst(3)) } ?? "?"
      records[path] = record + "end_of_record\n"
    }
    return records
  }

  func testCoverageWritesLcovInfoWithEveryLineHoldingCode() throws {
    let dir = try project()
    let result = try ReluaProcess.run(["test", "--coverage"], currentDirectory: dir.url)
    XCTAssertEqual(result.exitCode, 0, result.stdout + result.stderr)
    XCTAssertEqual(result.stdout, """
      PASS Tally adds
      PASS Tally resets

      2 passed, 0 failed
      Coverage: 93.1% of 29 lines (27 run) in 2 files, written to lcov.info

      """)
    let tracefile = try String(contentsOf: dir.url.appendingPathComponent("lcov.info"), encoding: .utf8)
    let records = records(tracefile)
    // The files under test and what they required, by paths relative to the directory the run
    // was in; none of relua's own chunks (its prelude, luassert, the DSL).
    XCTAssertEqual(records.keys.sorted(), ["Scripts/Features/Tally.lua", "Scripts/Tests/tally_spec.lua"])
    XCTAssertEqual(records["Scripts/Features/Tally.lua"], tallyRecord)
    // The spec: every line ran (a test body once, in its own state).
    XCTAssertTrue(records["Scripts/Tests/tally_spec.lua"]?.hasSuffix("LF:13\nLH:13\nend_of_record\n") ?? false, tracefile)
  }

  func testCoverageOutputNamesTheFileAndWithoutCoverageNothingIsWritten() throws {
    let dir = try project()
    let plain = try ReluaProcess.run(["test"], currentDirectory: dir.url)
    XCTAssertEqual(plain.exitCode, 0, plain.stdout + plain.stderr)
    XCTAssertFalse(plain.stdout.contains("Coverage"), plain.stdout)
    XCTAssertFalse(FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("lcov.info").path))

    // --coverage-output implies --coverage; json keeps standard output its document, so the
    // summary line goes to standard error.
    try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("out"), withIntermediateDirectories: true)
    let named = try ReluaProcess.run(
      ["test", "-o", "json", "--coverage-output", "out/tally.info", "Scripts/Tests/tally_spec.lua"], currentDirectory: dir.url)
    XCTAssertEqual(named.exitCode, 0, named.stdout + named.stderr)
    XCTAssertTrue(named.stderr.contains("Coverage: 93.1% of 29 lines (27 run) in 2 files, written to out/tally.info"), named.stderr)
    XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(named.stdout.utf8)))
    let tracefile = try String(contentsOf: dir.url.appendingPathComponent("out/tally.info"), encoding: .utf8)
    XCTAssertEqual(records(tracefile)["Scripts/Features/Tally.lua"], tallyRecord)

    let listed = try ReluaProcess.run(["test", "--list", "--coverage"], currentDirectory: dir.url)
    XCTAssertNotEqual(listed.exitCode, 0)
    XCTAssertTrue(listed.stderr.contains("--coverage counts the lines tests run: --list runs none"), listed.stderr)
  }

  /// Debian's lcov renders the tracefile as HTML, and reads the same totals from it.
  func testGenhtmlRendersTheTracefile() throws {
    guard let genhtml = ["/usr/bin/genhtml", "/usr/local/bin/genhtml"].first(where: FileManager.default.isExecutableFile)
    else { throw XCTSkip("genhtml is not installed (Debian: apt-get install lcov); the tracefile was not rendered") }
    let dir = try project()
    let result = try ReluaProcess.run(["test", "--coverage"], currentDirectory: dir.url)
    XCTAssertEqual(result.exitCode, 0, result.stdout + result.stderr)
    // genhtml reads the sources by the tracefile's paths, relative to where it runs: the
    // directory `relua test` ran in.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: genhtml)
    process.arguments = ["lcov.info", "--output-directory", "html"]
    process.currentDirectoryURL = dir.url
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, text)
    XCTAssertTrue(text.contains("lines......: 93.1% (27 of 29 lines)"), text)
    let page = try String(contentsOf: dir.url.appendingPathComponent("html/Features/Tally.lua.gcov.html"), encoding: .utf8)
    XCTAssertTrue(page.contains("tally "), "the feature's source is on its page")
  }
}
