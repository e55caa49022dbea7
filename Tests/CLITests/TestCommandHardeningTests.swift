import Foundation
import XCTest

/// Issue #31: `relua test` against tests that hang, coverage that names files outside the run, and
/// names that would forge or corrupt the output. Every run here has a process timeout of its own
/// (`RunningRelua.finish`), so a regression fails the test instead of hanging the suite.
final class TestCommandHardeningTests: XCTestCase {
  // MARK: A wall-clock limit per test

  private static let sleeper = """
    local relua = require "relua"
    local Sleeper = relua.feature "Sleeper" {
      state = { done = false },
      actions = { go = {}, done = {} },
      reduce = relua.on {
        go = function(_, _, deps)
          return relua.Effect.run(function(send) deps.clock.sleep(9e9); send("done") end)
        end,
        done = function(s) s.done = true end,
      },
    }
    local function waitForever()
      local store = relua.Store(Sleeper)
      store:send("go")
      store:wait()
    end

    """

  func testATestThatWaitsOrSpinsForeverTimesOutNamingItsStepAndTheSuiteGoesOn() throws {
    let dir = try ScriptDirectory()
    try dir.write("hang_test.lua", Self.sleeper + """
      test("first", function() end)
      test("waits in its body", function() waitForever() end)
      test("waits in finally", function() finally(waitForever) end)
      describe("block", function()
        after_each(waitForever)
        it("waits in after_each", function() end)
      end)
      describe("other", function()
        teardown(waitForever)
        it("waits in teardown", function() end)
      end)
      test("spins", function() while true do end end)
      test("spins under pcall", function() while true do pcall(function() while true do end end) end end)
      test("last", function() end)
      """)
    // No instruction limit to speak of: only the wall clock can stop the spinning tests.
    let run = try RunningRelua(
      ["test", "--test-timeout", "1", "--instruction-limit", "1000000000000", dir.url.appendingPathComponent("hang_test.lua").path],
      currentDirectory: dir.url)
    let result = run.finish(seconds: 90)
    XCTAssertEqual(result.exitCode, 6, result.stdout + result.stderr)
    XCTAssertTrue(result.stdout.contains("PASS first"), result.stdout)
    XCTAssertTrue(result.stdout.contains("PASS last"), result.stdout)
    for (name, step) in [
      ("waits in its body", "in its body"), ("waits in finally", "in finally"),
      ("block waits in after_each", "in after_each (hang_test.lua:"), ("other waits in teardown", "in teardown (hang_test.lua:"),
      ("spins", "in its body"), ("spins under pcall", "in its body"),
    ] {
      XCTAssertTrue(result.stdout.contains("FAIL \(name)\n"), "\(name)\n\(result.stdout)")
      // The failure: the test's name, then `file:line: test timed out after 1 s in STEP`.
      let pattern = try Regex("\\) \(name)\\n   hang_test\\.lua:\\d+: test timed out after 1 s \(NSRegularExpression.escapedPattern(for: step))")
      XCTAssertNotNil(result.stdout.firstMatch(of: pattern), "\(name)\n\(result.stdout)")
    }
    XCTAssertTrue(result.stdout.contains("2 passed, 6 failed"), result.stdout)
  }

  func testTheLimitIsAnOptionZeroIsNoneAndABadValueIsRefused() throws {
    let dir = try ScriptDirectory()
    try dir.write("quick_test.lua", """
      local relua = require "relua"
      test("waits a little", function()
        local store = relua.Store(relua.feature "Nap" {
          state = {}, actions = { go = {} },
          reduce = relua.on { go = function(_, _, deps) return relua.Effect.run(function() deps.clock.sleep(0.3) end) end },
        })
        store:send("go")
        store:wait()
      end)
      """)
    let none = try RunningRelua(["test", "--test-timeout", "0", "quick_test.lua"], currentDirectory: dir.url).finish(seconds: 60)
    XCTAssertEqual(none.exitCode, 0, none.stdout + none.stderr)
    let short = try RunningRelua(["test", "--test-timeout", "0.1", "quick_test.lua"], currentDirectory: dir.url).finish(seconds: 60)
    XCTAssertEqual(short.exitCode, 1, short.stdout)
    XCTAssertTrue(short.stdout.contains("test timed out after 0.1 s in its body"), short.stdout)
    let bad = try RunningRelua(["test", "--test-timeout", "-1", "quick_test.lua"], currentDirectory: dir.url).finish(seconds: 60)
    XCTAssertNotEqual(bad.exitCode, 0)
    XCTAssertTrue(bad.stderr.contains("--test-timeout"), bad.stderr)
  }

  // MARK: Coverage reads only what the runner loaded

  func testCoverageNeverReadsAFileAChunkOnlyNames() throws {
    let outside = try ScriptDirectory()
    let secret = try outside.write("secret.yaml", "password: HUNTER2-TOPSECRET-7f3a\napi_key = 'ZEBRA-KEY-91c2'\n")
    let dir = try ScriptDirectory()
    try dir.write("Scripts/helper.lua", "local M = {}\nfunction M.one() return 1 end\nreturn M\n")
    try dir.write("Scripts/Tests/forge_test.lua", """
      local helper = require "helper"
      test("names files it did not load", function()
        assert.are.equal(1, helper.one())
        -- A chunk named as the secret file: run, and failing, under that name.
        assert.are.equal(1, load("return 1\\n", "@\(secret)")())
        local ok, message = pcall(load(("\\n"):rep(5) .. "error('x')", "@\(secret)"))
        assert.is_false(ok)
        assert.matches("secret.yaml:6: x", message, 1, true)
        -- A chunk named as the test file itself, with lines the file does not have.
        load(("\\n"):rep(200) .. "return 2", "@Scripts/Tests/forge_test.lua")()
      end)
      """)
    let run = try RunningRelua(["test", "--coverage", "Scripts/Tests"], currentDirectory: dir.url).finish(seconds: 60)
    XCTAssertEqual(run.exitCode, 0, run.stdout + run.stderr)
    let lcov = try String(contentsOf: dir.url.appendingPathComponent("lcov.info"), encoding: .utf8)
    for text in ["HUNTER2", "TOPSECRET", "ZEBRA", "password", "api_key"] {
      XCTAssertFalse(run.stdout.contains(text) || run.stderr.contains(text) || lcov.contains(text), text)
    }
    let files = lcov.split(separator: "\n").filter { $0.hasPrefix("SF:") }
    XCTAssertEqual(files, ["SF:Scripts/Tests/forge_test.lua", "SF:Scripts/helper.lua"], lcov)
    XCTAssertFalse(lcov.contains("DA:201"), lcov)
    XCTAssertFalse(run.stderr.contains("leaves out"), run.stderr)
  }

  // MARK: Names and messages a test controls

  /// Test, describe and file names, messages and tracebacks with line breaks, TAP lines, ESC,
  /// NUL, BEL, DEL and a C1 CSI.
  private func hostileSuite() throws -> ScriptDirectory {
    let dir = try ScriptDirectory()
    try dir.write("odd\u{1B}[31mname_test.lua", """
      test("x\\nnot ok 99 injected", function() error("boom\\nnot ok 98 also\\27[31m red\\0 \\7") end)
      describe("esc \\27[2J bel \\7 nul \\0 del \\127 csi \\u{9B} ]]> & <", function()
        it("passes", function() end)
        it("fails deep", function()
          local function a() assert.are.same({ 1, "\\27]0;title\\7" }, { 2 }) end
          local function b() a() end
          b()
        end)
      end)
      test("prints", function() print("line\\nnot ok 97 printed\\27[1m") end)
      pending("pending \\n ok 96")
      test("ok # SKIP fake", function() error("a: b: c\\n  ...\\n---") end)
      """)
    return dir
  }

  private static let forbidden: [Character] = ["\u{1B}", "\u{0}", "\u{7}", "\u{9B}", "\u{7F}"]

  func testConsoleOutputCarriesNoControlCharacters() throws {
    let dir = try hostileSuite()
    let run = try RunningRelua(["test", "."], currentDirectory: dir.url).finish(seconds: 60)
    XCTAssertEqual(run.exitCode, 3, run.stdout)
    // What the test prints is its own output, as `relua run` prints it; everything else is clean.
    let reported = run.stdout.replacingOccurrences(of: "line\nnot ok 97 printed\u{1B}[1m\n", with: "")
    for character in Self.forbidden { XCTAssertFalse(reported.contains(character), "\(character.unicodeScalars.first!.value)\n\(reported)") }
    XCTAssertTrue(reported.contains("FAIL x\\nnot ok 99 injected\n"), reported)
    XCTAssertTrue(reported.contains("esc \\027[2J bel \\007 nul \\000 del \\127 csi \\u{9B}"), reported)
  }

  func testTAPIsOneLinePerTestAndPerlsTAPParserReadsIt() throws {
    let dir = try hostileSuite()
    let run = try RunningRelua(["test", "-o", "TAP", "."], currentDirectory: dir.url).finish(seconds: 60)
    XCTAssertEqual(run.exitCode, 3, run.stdout)
    for character in Self.forbidden { XCTAssertFalse(run.stdout.contains(character), run.stdout) }
    let results = run.stdout.split(separator: "\n").filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }
    XCTAssertEqual(results.count, 6, run.stdout)
    XCTAssertEqual(results.map { $0.split(separator: " ").first { Int($0) != nil } }, ["1", "2", "3", "4", "5", "6"])
    let tap = dir.url.appendingPathComponent("out.tap")
    try run.stdout.write(to: tap, atomically: true, encoding: .utf8)
    // TAP::Parser's counts: the plan, each test, the failures, no parse error (a YAML block it
    // cannot read is a parse error and ends its reading).
    let script = """
      use TAP::Parser;
      my $p = TAP::Parser->new({ exec => ['cat', $ARGV[0]] }) or die;
      my $yaml = 0;
      while (my $r = $p->next) { $yaml++ if $r->is_yaml }
      print join(' ', 'planned', $p->tests_planned, 'run', $p->tests_run, 'passed', scalar($p->passed),
        'failed', scalar($p->failed), 'skipped', scalar($p->skipped), 'yaml', $yaml,
        'errors', scalar($p->parse_errors)), "\\n";
      print "$_\\n" for $p->parse_errors;
      """
    guard let perl = try? Self.run("/usr/bin/perl", ["-e", script, tap.path]), perl.exitCode == 0 || perl.stdout.contains("planned")
    else { throw XCTSkip("perl's TAP::Parser is not installed") }
    XCTAssertEqual(perl.stdout, "planned 6 run 6 passed 3 failed 3 skipped 1 yaml 3 errors 0\n", perl.stderr)
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/prove") {
      let prove = try Self.run("/usr/bin/prove", ["--exec", "cat", tap.path])
      XCTAssertTrue(prove.stdout.contains("Tests=6"), prove.stdout)
      XCTAssertTrue(prove.stdout.contains("Failed 3/6 subtests"), prove.stdout)
      XCTAssertFalse(prove.stdout.contains("Parse errors"), prove.stdout)
    }
  }

  func testJSONAndJUnitParseWithTheNamesIntact() throws {
    let dir = try hostileSuite()
    let json = try RunningRelua(["test", "-o", "json", "."], currentDirectory: dir.url).finish(seconds: 60)
    for character in Self.forbidden { XCTAssertFalse(json.stdout.contains(character), json.stdout) }
    let document = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], json.stdout)
    let failures = try XCTUnwrap(document["failures"] as? [[String: Any]])
    XCTAssertEqual(failures.count, 3)
    XCTAssertTrue(failures.contains { ($0["name"] as? String) == "x\nnot ok 99 injected" })
    XCTAssertTrue(failures.contains { ($0["name"] as? String)?.contains("\u{1B}[2J bel \u{7} nul \u{0} del \u{7F} csi \u{9B}") == true })
    let junit = try RunningRelua(["test", "-o", "junit", "."], currentDirectory: dir.url).finish(seconds: 60)
    for character in Self.forbidden { XCTAssertFalse(junit.stdout.contains(character), junit.stdout) }
    let xml = dir.url.appendingPathComponent("out.xml"), jsonFile = dir.url.appendingPathComponent("out.json")
    try junit.stdout.write(to: xml, atomically: true, encoding: .utf8)
    try json.stdout.write(to: jsonFile, atomically: true, encoding: .utf8)
    let python = """
      import json, sys, xml.dom.minidom
      doc = xml.dom.minidom.parse(sys.argv[1])
      cases = doc.getElementsByTagName('testcase')
      failures = doc.getElementsByTagName('failure')
      names = [c.getAttribute('name') for c in cases]
      j = json.load(open(sys.argv[2], encoding='utf-8'))
      print(len(cases), len(failures), len(doc.getElementsByTagName('skipped')), 'x\\nnot ok 99 injected' in names,
            any('\\\\027[2J' in n for n in names), len(j['failures']), len(j['successes']), len(j['pendings']))
      """
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("python3 is not installed") }
    let checked = try Self.run("/usr/bin/python3", ["-c", python, xml.path, jsonFile.path])
    XCTAssertEqual(checked.stdout, "6 3 1 True True 3 2 1\n", checked.stderr)
  }

  /// Runs a tool to its end (at most 60 s) and returns what it printed.
  static func run(_ executable: String, _ arguments: [String]) throws -> ReluaProcess.Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: killer)
    nonisolated(unsafe) var outData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    killer.cancel()
    return ReluaProcess.Result(
      exitCode: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}
