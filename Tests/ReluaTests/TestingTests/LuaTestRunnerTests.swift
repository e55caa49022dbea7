import Composable
import Lua
import XCTest

@testable import Relua
@testable import ReluaTesting

@MainActor
final class LuaTestRunnerTests: XCTestCase {
  private func run(
    _ files: [String: String], configuration: LuaTestConfiguration = LuaTestConfiguration()
  ) async throws -> (LuaTestSummary, LuaTestDirectory) {
    let directory = try LuaTestDirectory()
    for (name, source) in files { try directory.write(name, source) }
    // Relative paths, as a user in the directory would type them, keep locations short.
    let summary = await directory.inside { await LuaTestRunner(configuration: configuration).run(paths: ["."]) }
    return (summary, directory)
  }

  private func failure(_ summary: LuaTestSummary, _ name: String) throws -> LuaTestFailure {
    try XCTUnwrap(summary.results.first { $0.name == name }?.failure, "no failure named \(name)")
  }

  func testPassingFailingErroringAndSkippedTests() async throws {
    let (summary, _) = try await run(["math_test.lua": """
      test("adds", function() assert_equal(1 + 2, 3) end)
      test("compares", function()
        assert_equal(2 + 2, 3)
      end)
      test("errors", function()
        local t = nil
        return t.x
      end)
      test("asserts", function()
        assert(false, "not true")
      end)
      pending("later")
      skip("broken for now", function() error("never runs") end)
      """])
    XCTAssertEqual(summary.results.map(\.name), ["adds", "compares", "errors", "asserts", "later", "broken for now"])
    XCTAssertEqual([summary.passed, summary.failed, summary.skipped], [1, 3, 2])
    XCTAssertEqual(summary.closingLine, "1 passed, 3 failed, 2 skipped")
    XCTAssertEqual(summary.exitCode, 3)

    let compares = try failure(summary, "compares")
    XCTAssertEqual(compares.description, "math_test.lua:3: expected 3, got 4")
    XCTAssertEqual(compares.traceback, ["math_test.lua:3: in function <math_test.lua:2>"])
    XCTAssertEqual(try failure(summary, "errors").description, "math_test.lua:7: attempt to index a nil value (local 't')")
    // Lua's assert gives no position: the runner takes it from the traceback.
    XCTAssertEqual(try failure(summary, "asserts").description, "math_test.lua:10: not true")
  }

  /// busted's `pending` inside an `it`: the test ends there, skipped, with the reason as a note.
  func testPendingInsideATestSkipsItSayingWhy() async throws {
    let (summary, _) = try await run(["server_test.lua": """
      local reached = false
      it("needs a server", function()
        pending("no server on 127.0.0.1:1")
        reached = true
        error("not reached")
      end)
      it("runs", function() assert_equal(reached, false) end)
      """])
    XCTAssertEqual([summary.passed, summary.failed, summary.skipped], [1, 0, 1])
    let skipped = try XCTUnwrap(summary.results.first { $0.name == "needs a server" })
    XCTAssertEqual(skipped.outcome, .skipped)
    XCTAssertEqual(skipped.notes, ["pending: no server on 127.0.0.1:1"])
  }

  func testFailureLocationsUseTheFilePathAsDiscovered() async throws {
    let directory = try LuaTestDirectory()
    try directory.write("nested/deeper/where_test.lua", "test('fails', function() error('here') end)")
    let summary = await LuaTestRunner().run(paths: [directory.path])
    let failure = try XCTUnwrap(summary.results.first?.failure)
    XCTAssertEqual(failure.message, "here")
    XCTAssertTrue(failure.location?.hasSuffix("where_test.lua:1") ?? false, failure.description)
  }

  func testDescribeAndItJoinNamesWithSpaces() async throws {
    let (summary, _) = try await run(["names_test.lua": """
      describe("Counter", function()
        it("starts at zero", function() end)
        describe("increment", function()
          it("adds one", function() end)
          pending("wraps around")
        end)
      end)
      test("top level", function() end)
      """])
    XCTAssertEqual(summary.results.map(\.name), [
      "Counter starts at zero", "Counter increment adds one", "Counter increment wraps around", "top level",
    ])
    XCTAssertEqual(summary.results.map(\.outcome), [.passed, .passed, .skipped, .passed])
  }

  func testFilterRunsOnlyTestsWhoseFullNameContainsThePattern() async throws {
    var configuration = LuaTestConfiguration()
    configuration.filter = "increment a"
    let (summary, _) = try await run(["filter_test.lua": """
      describe("increment", function()
        it("adds one", function() end)
        it("fails", function() error("x") end)
      end)
      test("increment adds (plain test)", function() end)
      test("other", function() error("must not run") end)
      """], configuration: configuration)
    XCTAssertEqual(summary.results.map(\.name), ["increment adds one", "increment adds (plain test)"])
    XCTAssertEqual(summary.closingLine, "2 passed, 0 failed")
  }

  func testEachTestRunsInAFreshState() async throws {
    let (summary, _) = try await run(["isolation_test.lua": """
      loads = (loads or 0) + 1
      test("sets a global", function() leaked = "yes" end)
      test("does not see it", function()
        assert_equal(leaked, nil)
        assert_equal(loads, 1)
      end)
      """])
    XCTAssertEqual(summary.closingLine, "2 passed, 0 failed")
  }

  func testSyntaxErrorInATestFileIsAFailureNamedAfterTheFile() async throws {
    let (summary, _) = try await run([
      "a_test.lua": "test('fine', function() end)",
      "b_test.lua": "test('never', function() end)\nlocal = 1\n",
      "c_test.lua": "error('top-level trouble')",
    ])
    XCTAssertEqual(summary.results.count, 3)
    XCTAssertEqual(summary.results[0].name, "fine")
    XCTAssertEqual(summary.results[1].name, "b_test.lua")
    let syntax = try XCTUnwrap(summary.results[1].failure)
    XCTAssertEqual(syntax.description, "b_test.lua:2: syntax error: <name> expected near '='")
    let raised = try XCTUnwrap(summary.results[2].failure)
    XCTAssertEqual(raised.description, "c_test.lua:1: top-level trouble")
    XCTAssertEqual(summary.exitCode, 2)
  }

  func testRunawayTestIsStoppedByTheInstructionBudget() async throws {
    var configuration = LuaTestConfiguration()
    configuration.instructionLimit = 200_000
    let (summary, _) = try await run(["spin_test.lua": """
      test("spins", function()
        while true do pcall(function() while true do end end) end
      end)
      test("still runs", function() end)
      """], configuration: configuration)
    XCTAssertEqual(try failure(summary, "spins").description, "spin_test.lua:2: instruction budget exhausted")
    XCTAssertEqual(summary.closingLine, "1 passed, 1 failed")
  }

  func testMemoryBombIsStoppedByTheMemoryLimit() async throws {
    var configuration = LuaTestConfiguration()
    configuration.memoryLimit = 8_000_000
    let (summary, _) = try await run(["bomb_test.lua": """
      test("bomb", function()
        local t = {}
        for i = 1, math.huge do t[i] = ("x"):rep(1024) .. i end
      end)
      test("still runs", function() end)
      """], configuration: configuration)
    XCTAssertEqual(try failure(summary, "bomb").description, "bomb_test.lua:3: memory limit of 8000000 bytes exceeded")
    XCTAssertEqual(summary.closingLine, "1 passed, 1 failed")
  }

  func testPrepareStateInjectsGlobalsAndAwaitablesIntoEveryTest() async throws {
    struct NotFound: Error, CustomStringConvertible { var description: String { "no such user" } }
    var configuration = LuaTestConfiguration()
    configuration.prepareState = { state in
      try state.setGlobal("answer", 42)
      try state.setGlobal("fetch", .function(state.awaitable(name: "fetch") { arguments in
        await Task.yield()
        guard arguments.first?.stringValue == "alice" else { throw NotFound() }
        return ["Alice"]
      }))
      try state.register("explode") { _ in throw NotFound() }
    }
    let (summary, _) = try await run(["inject_test.lua": """
      test("sees the global", function() assert_equal(answer, 42) end)
      test("awaits", function() assert_equal(fetch("alice"), "Alice") end)
      test("await fails at its line", function()
        fetch("bob")
      end)
      test("swift error is located", function()
        explode()
      end)
      """], configuration: configuration)
    XCTAssertEqual(summary.results.map(\.name).count, 4)
    XCTAssertEqual(summary.passed, 2)
    XCTAssertEqual(try failure(summary, "await fails at its line").description, "inject_test.lua:4: no such user")
    XCTAssertEqual(try failure(summary, "swift error is located").description, "inject_test.lua:7: no such user")
  }

  func testAwaitingAtTheTopLevelOfAFileIsAClearError() async throws {
    var configuration = LuaTestConfiguration()
    configuration.prepareState = { state in
      try state.setGlobal("sleep", .function(state.awaitable(name: "clock.sleep") { _ in [] }))
    }
    let (summary, _) = try await run(["top_test.lua": "sleep(1)"], configuration: configuration)
    let failure = try XCTUnwrap(summary.results.first?.failure)
    XCTAssertEqual(
      failure.description, "top_test.lua:1: 'clock.sleep' is asynchronous: call it inside Effect.run (or a test body)")
  }

  func testDeclaringATestInsideATestIsAnError() async throws {
    let (summary, _) = try await run(["nested_test.lua": """
      test("outer", function()
        test("inner", function() end)
      end)
      """])
    XCTAssertEqual(try failure(summary, "outer").location, "nested_test.lua:2")
  }

  /// Failures on huge values print a screenful, cut by the rule every printout follows
  /// (`Elision`): assertions, the test store's diffs and actions, a raised string.
  func testFailuresOnHugeValuesAreCutToAScreenful() async throws {
    let (summary, _) = try await run(["huge_test.lua": """
      local function list(n) local t = {} for i = 1, n do t[i] = i end return t end
      local Rows = relua.feature "Rows" {
        state = function() return { rows = {} } end,
        actions = { fill = "integer", echo = "any" },
        reduce = relua.on {
          fill = function(s, n) s.rows = list(n) end,
          echo = function(_, payload) return relua.Effect.send("fill", #payload) end,
        },
      }
      test("assert_equal", function() assert_equal(list(1000000), list(999999)) end)
      test("unexpected change", function() relua.TestStore(Rows):send("fill", 1000000) end)
      test("changed rows", function()
        local store = relua.TestStore(Rows, { state = { rows = list(1000000) } })
        store:send("fill", 1000001, function(s) for i = 1, 1000000 do s.rows[i] = -i end end)
      end)
      test("received payload", function()
        local store = relua.TestStore(Rows)
        store:send("echo", list(100000))
        store:receive("fill", 3)
      end)
      test("raised", function() error(string.rep("z", 100000)) end)
      """])
    func message(_ name: String) throws -> String {
      let text = try failure(summary, name).message
      XCTAssertLessThanOrEqual(text.split(separator: "\n").count, Elision.standard.lines + 8, text)
      XCTAssertLessThan(text.utf8.count, Elision.standard.textCharacters + 100, name)
      return text
    }
    let assertion = try message("assert_equal")
    XCTAssertTrue(assertion.hasPrefix("expected { 1, 2, 3, "), assertion)
    XCTAssertTrue(assertion.contains("25, … 999,974 more }, got { 1, 2, 3, "), assertion)
    XCTAssertTrue(try message("unexpected change").contains("+     … 999,975 more\n"))
    let changed = try message("changed rows")
    XCTAssertTrue(changed.contains(" more changes"), changed)
    let received = try message("received payload")
    XCTAssertTrue(received.contains("fill(3)") && received.contains("fill(100000)"), received)
    let raised = try message("raised")
    XCTAssertTrue(raised.hasSuffix("z… (100,000 characters, 90,000 not shown)"), raised)
  }

  func testExitCodeIsTheFailureCountCappedAt125() {
    let failed = LuaTestResult(name: "x", file: "x", outcome: .failed(LuaTestFailure(message: "no", location: nil)))
    XCTAssertEqual(LuaTestSummary(results: []).exitCode, 0)
    XCTAssertEqual(LuaTestSummary(results: Array(repeating: failed, count: 7)).exitCode, 7)
    XCTAssertEqual(LuaTestSummary(results: Array(repeating: failed, count: 300)).exitCode, 125)
  }

  func testDiscoveryIsRecursiveSortedAndKeepsExplicitFiles() throws {
    let directory = try LuaTestDirectory()
    try directory.write("b_test.lua", "")
    try directory.write("a/z_test.lua", "")
    try directory.write("a/helper.lua", "")
    let explicit = try directory.write("a/helper.lua", "")
    XCTAssertEqual(
      LuaTestDiscovery.testFiles(in: [directory.path, explicit]),
      [directory.path + "/a/z_test.lua", directory.path + "/b_test.lua", explicit])
  }

  func testScriptRootsIncludeTheRepositoryScriptsDirectory() async throws {
    let directory = try LuaTestDirectory()
    try directory.write("Scripts/Features/Greeting.lua", "return { text = 'hi' }")
    try directory.write("Scripts/Tests/helpers.lua", "return { twice = function(x) return 2 * x end }")
    try directory.write("Scripts/Tests/require_test.lua", """
      test("requires features and neighbours", function()
        assert_equal(require("Features.Greeting").text, "hi")
        assert_equal(require("helpers").twice(21), 42)
      end)
      """)
    let summary = await LuaTestRunner().run(paths: [directory.path + "/Scripts/Tests"])
    XCTAssertEqual(summary.closingLine, "1 passed, 0 failed", "\(summary.results)")
  }

  /// The repository's own Lua suite passes.
  func testScriptsTestsSuitePasses() async throws {
    let scriptsTests = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Scripts/Tests").path
    prepareScriptSuite()
    let summary = await LuaTestRunner().run(paths: [scriptsTests])
    XCTAssertGreaterThan(summary.passed, 0)
    XCTAssertEqual(summary.failed, 0, summary.results.compactMap(\.failure).map(\.description).joined(separator: "\n"))
  }
}
