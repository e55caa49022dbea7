import Foundation
import XCTest

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `relua test -o json|junit|TAP`, `--list`, `--shuffle`/`--seed`, `--repeat`, `--tags`.
final class TestCommandFormatsTests: XCTestCase {
  private let mixedSuite = """
    test("adds #fast", function() assert_equal(1 + 1, 2) end)
    describe("strings", function()
      it("upper-cases", function() expect(("a"):upper()).to_be("A") end)
      it("fails <&> \\"q\\"", function()
        expect(("a"):rep(3)).to_be("aa")
      end)
    end)
    pending("someday")
    """

  private func names(_ entries: Any?) -> [String] {
    ((entries as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
  }

  func testJSONIsBustedsShape() throws {
    let dir = try ScriptDirectory()
    try dir.write("mixed_test.lua", mixedSuite)
    try dir.write("broken_test.lua", "this is not lua")
    let result = try ReluaProcess.run(["test", ".", "-o", "json"], currentDirectory: dir.url)
    XCTAssertEqual(result.exitCode, 2, result.stdout + result.stderr)
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    let json = try XCTUnwrap(object, result.stdout)
    XCTAssertEqual(names(json["successes"]), ["adds #fast", "strings upper-cases"])
    XCTAssertEqual(names(json["failures"]), ["strings fails <&> \"q\""])
    XCTAssertEqual(names(json["errors"]), ["broken_test.lua"])
    XCTAssertEqual(names(json["pendings"]), ["someday"])
    XCTAssertNotNil(json["duration"] as? Double)
    let failure = try XCTUnwrap((json["failures"] as? [[String: Any]])?.first)
    XCTAssertEqual(failure["message"] as? String, "mixed_test.lua:5: expected \"aa\", got \"aaa\"")
    let trace = try XCTUnwrap(failure["trace"] as? [String: Any])
    XCTAssertEqual(trace["short_src"] as? String, "mixed_test.lua")
    XCTAssertEqual(trace["currentline"] as? Int, 5)
    XCTAssertTrue((trace["traceback"] as? String ?? "").contains("mixed_test.lua:5: in function"), "\(trace)")
  }

  /// The parts of a JUnit document an XMLParser sees.
  private final class JUnitCollector: NSObject, XMLParserDelegate {
    var testcases: [[String: String]] = []
    var failures: [(testcase: String, message: String, text: String)] = []
    var skipped: [String] = []
    var suites: [[String: String]] = []
    var root: [String: String] = [:]
    private var inFailure = false
    private var text = ""

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      switch name {
      case "testsuites": root = attributes
      case "testsuite": suites.append(attributes)
      case "testcase": testcases.append(attributes)
      case "failure", "error":
        inFailure = true
        text = ""
        failures.append((testcases.last?["name"] ?? "?", attributes["message"] ?? "", ""))
      case "skipped": skipped.append(testcases.last?["name"] ?? "?")
      default: break
      }
    }
    func parser(_ parser: XMLParser, foundCharacters string: String) { if inFailure { text += string } }
    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
      if name == "failure" || name == "error" {
        inFailure = false
        failures[failures.count - 1].text = text
      }
    }
  }

  private func parseJUnit(_ text: String) throws -> JUnitCollector {
    let parser = XMLParser(data: Data(text.utf8))
    let collector = JUnitCollector()
    parser.delegate = collector
    XCTAssertTrue(parser.parse(), "not valid XML (\(String(describing: parser.parserError))): \(text)")
    return collector
  }

  func testJUnitIsValidXMLWithTestcasesAndAFailure() throws {
    let dir = try ScriptDirectory()
    try dir.write("mixed_test.lua", mixedSuite)
    let result = try ReluaProcess.run(["test", ".", "-o", "junit"], currentDirectory: dir.url)
    XCTAssertEqual(result.exitCode, 1, result.stdout + result.stderr)
    let junit = try parseJUnit(result.stdout)
    XCTAssertEqual(junit.root["tests"], "4")
    XCTAssertEqual(junit.root["failures"], "1")
    XCTAssertEqual(junit.root["skip"], "1")
    XCTAssertEqual(junit.suites.count, 1)
    XCTAssertEqual(junit.testcases.map { $0["name"] ?? "" },
      ["adds #fast", "strings upper-cases", "strings fails <&> \"q\"", "someday"])
    XCTAssertEqual(junit.testcases.map { $0["classname"] ?? "" },
      ["mixed_test.lua:1", "mixed_test.lua:3", "mixed_test.lua:4", "mixed_test.lua:8"])
    XCTAssertEqual(junit.failures.count, 1)
    XCTAssertEqual(junit.failures.first?.testcase, "strings fails <&> \"q\"")
    XCTAssertEqual(junit.failures.first?.message, "mixed_test.lua:5: expected \"aa\", got \"aaa\"")
    XCTAssertTrue(junit.failures.first?.text.contains("stack traceback:\n\tmixed_test.lua:5") ?? false,
      junit.failures.first?.text ?? "")
    XCTAssertEqual(junit.skipped, ["someday"])
  }

  func testJUnitGoesToTheXoutputFileAndRepeatsAreSuites() throws {
    let dir = try ScriptDirectory()
    try dir.write("one_test.lua", "test('one', function() end)\ntest('two', function() end)")
    let result = try ReluaProcess.run(
      ["test", ".", "-o", "junit", "-Xoutput", "report.xml", "--repeat", "2"], currentDirectory: dir.url)
    XCTAssertEqual(result.exitCode, 0, result.stdout + result.stderr)
    XCTAssertEqual(result.stdout, "")
    let text = try String(contentsOf: dir.url.appendingPathComponent("report.xml"), encoding: .utf8)
    let junit = try parseJUnit(text)
    XCTAssertEqual(junit.suites.map { $0["name"] ?? "" }, ["Run 1 of 2", "Run 2 of 2"])
    XCTAssertEqual(junit.root["tests"], "4")
  }

  func testTAPIsAnOutputFormatAndTheFlagStaysItsAlias() throws {
    let dir = try ScriptDirectory()
    try dir.write("one_test.lua", "test('one', function() end)")
    let viaOption = try ReluaProcess.run(["test", ".", "-o", "TAP"], currentDirectory: dir.url)
    let viaFlag = try ReluaProcess.run(["test", ".", "--tap"], currentDirectory: dir.url)
    XCTAssertEqual(viaOption.stdout, "TAP version 13\n1..1\nok 1 - one\n# 1 passed, 0 failed\n")
    XCTAssertEqual(viaOption.stdout, viaFlag.stdout)
    let unknown = try ReluaProcess.run(["test", ".", "-o", "xml"], currentDirectory: dir.url)
    XCTAssertNotEqual(unknown.exitCode, 0)
  }

  func testListPrintsTheTestsAndRunsNone() throws {
    let dir = try ScriptDirectory()
    try dir.write("a_test.lua", """
      test("writes a marker", function() error("ran") end)
      describe("block", function() it("inner", function() error("ran") end) end)
      """)
    try dir.write("b_spec.lua", "pending('later')")
    let result = try ReluaProcess.run(["test", ".", "--list"], currentDirectory: dir.url)
    XCTAssertEqual(result.exitCode, 0, result.stdout + result.stderr)
    XCTAssertEqual(result.stdout, """
      a_test.lua:1: writes a marker
      a_test.lua:2: block inner
      b_spec.lua:1: later (skipped)

      """)
    let filtered = try ReluaProcess.run(["test", ".", "--list", "--filter", "inner"], currentDirectory: dir.url)
    XCTAssertEqual(filtered.stdout, "a_test.lua:2: block inner\n")
  }

  private let manyTests = (1...12).map { "test('t\($0)', function() end)" }.joined(separator: "\n")

  private func order(_ stdout: String) -> [String] {
    stdout.split(separator: "\n").filter { $0.hasPrefix("PASS ") }.map { String($0.dropFirst(5)) }
  }

  func testShuffleWithASeedRepeatsItsOrder() throws {
    let dir = try ScriptDirectory()
    try dir.write("a_test.lua", manyTests)
    try dir.write("b_test.lua", "test('other file', function() end)")
    let first = try ReluaProcess.run(["test", ".", "--shuffle", "--seed", "42"], currentDirectory: dir.url)
    let again = try ReluaProcess.run(["test", ".", "--shuffle", "--seed", "42"], currentDirectory: dir.url)
    XCTAssertEqual(first.exitCode, 0, first.stdout + first.stderr)
    XCTAssertTrue(first.stdout.hasPrefix("Shuffled with seed 42"), first.stdout)
    XCTAssertEqual(order(first.stdout).count, 13)
    XCTAssertEqual(order(first.stdout), order(again.stdout))
    let declared = (1...12).map { "t\($0)" } + ["other file"]
    XCTAssertEqual(Set(order(first.stdout)), Set(declared))
    // 13 tests: some of a few seeds give another order, and not the declared one.
    let orders = try [1, 2, 3].map { seed in
      order(try ReluaProcess.run(["test", ".", "--seed", "\(seed)"], currentDirectory: dir.url).stdout)
    }
    XCTAssertTrue(orders.contains { $0 != order(first.stdout) }, "\(orders)")
    XCTAssertTrue((orders + [order(first.stdout)]).contains { $0 != declared })
    // Without a seed, one is drawn and printed, and it repeats the order.
    let drawn = try ReluaProcess.run(["test", ".", "--shuffle"], currentDirectory: dir.url)
    let seed = try XCTUnwrap(drawn.stdout.split(separator: "\n").first?.split(separator: " ").dropFirst(3).first)
    let replayed = try ReluaProcess.run(["test", ".", "--seed", String(seed)], currentDirectory: dir.url)
    XCTAssertEqual(order(drawn.stdout), order(replayed.stdout))
  }

  func testRepeatRunsEachTestNTimesAndFailsIfAnyRunFails() throws {
    let dir = try ScriptDirectory()
    try dir.write("a_test.lua", "test('one', function() end)\ntest('two', function() end)")
    let result = try ReluaProcess.run(["test", ".", "--repeat", "3", "-o", "json"], currentDirectory: dir.url)
    XCTAssertEqual(result.exitCode, 0, result.stdout + result.stderr)
    let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    XCTAssertEqual(names(json["successes"]), ["one", "two", "one", "two", "one", "two"])
    XCTAssertEqual(((json["successes"] as? [[String: Any]]) ?? []).compactMap { $0["run"] as? Int }, [1, 1, 2, 2, 3, 3])
    // A test that fails on its second run only (a file beside the test counts the runs: trusted).
    try dir.write("flaky_test.lua", """
      test("flaky", function()
        local f = io.open("count", "a+"); f:write("x"); f:seek("set"); local n = #f:read("a"); f:close()
        assert(n ~= 2, "second run")
      end)
      """)
    let flaky = try ReluaProcess.run(["test", "flaky_test.lua", "--repeat", "3", "--trusted"], currentDirectory: dir.url)
    XCTAssertEqual(flaky.exitCode, 1, flaky.stdout + flaky.stderr)
    XCTAssertEqual(
      flaky.stdout.split(separator: "\n").filter { $0 == "PASS flaky" || $0 == "FAIL flaky" },
      ["PASS flaky", "FAIL flaky", "PASS flaky"], flaky.stdout)
    XCTAssertTrue(flaky.stdout.hasSuffix("2 passed, 1 failed\n"), flaky.stdout)
    let zero = try ReluaProcess.run(["test", ".", "--repeat", "0"], currentDirectory: dir.url)
    XCTAssertNotEqual(zero.exitCode, 0)
  }

  func testTagsSelectAndExcludeTests() throws {
    let dir = try ScriptDirectory()
    try dir.write("t_test.lua", """
      test("a #fast one", function() end)
      describe("#slow block", function() it("b", function() end) it("c #fast", function() end) end)
      test("untagged", function() end)
      """)
    let fast = try ReluaProcess.run(["test", ".", "--tags", "fast"], currentDirectory: dir.url)
    XCTAssertEqual(fast.stdout, "PASS a #fast one\nPASS #slow block c #fast\n\n2 passed, 0 failed\n")
    let notSlow = try ReluaProcess.run(["test", ".", "--tags=fast,slow", "--exclude-tags", "slow"], currentDirectory: dir.url)
    XCTAssertEqual(notSlow.stdout, "PASS a #fast one\n\n1 passed, 0 failed\n")
    let none = try ReluaProcess.run(["test", ".", "--tags", "nothing"], currentDirectory: dir.url)
    XCTAssertEqual(none.exitCode, 1)
    XCTAssertTrue(none.stderr.contains("relua test: no test is tagged #nothing (in .)"), none.stderr)
  }
}
