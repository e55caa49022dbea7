import XCTest

@testable import Relua
@testable import ReluaTesting

/// busted's structure of specs in `relua test`: `*_spec.lua`, the hooks and their order, hook
/// failures, `finally`, `insulate`/`expose`.
@MainActor
final class LuaTestBustedTests: XCTestCase {
  /// What the tests printed, line by line (tests run on the main actor, one at a time).
  private final class Printed: @unchecked Sendable {
    var lines: [String] = []
  }

  private func run(
    _ files: [String: String], configuration: LuaTestConfiguration = LuaTestConfiguration()
  ) async throws -> (LuaTestSummary, [String]) {
    let directory = try LuaTestDirectory()
    for (name, source) in files { try directory.write(name, source) }
    let printed = Printed()
    var configuration = configuration
    configuration.print = { printed.lines.append($0) }
    let summary = await directory.inside { await LuaTestRunner(configuration: configuration).run(paths: ["."]) }
    return (summary, printed.lines)
  }

  private func result(_ summary: LuaTestSummary, _ name: String) throws -> LuaTestResult {
    try XCTUnwrap(summary.results.first { $0.name == name }, "no test named \(name) in \(summary.results.map(\.name))")
  }

  private func failure(_ summary: LuaTestSummary, _ name: String) throws -> LuaTestFailure {
    try XCTUnwrap(try result(summary, name).failure, "\(name) did not fail")
  }

  // MARK: Discovery

  func testDiscoveryFindsSpecFilesAsWellAsTestFiles() throws {
    let directory = try LuaTestDirectory()
    try directory.write("b_test.lua", "")
    try directory.write("a_spec.lua", "")
    try directory.write("nested/c_spec.lua", "")
    try directory.write("spec_helper.lua", "")
    try directory.write("nested/specs.lua", "")
    let explicit = try directory.write("helpers/not_a_spec_file.lua", "")
    XCTAssertEqual(
      LuaTestDiscovery.testFiles(in: [directory.path, explicit]),
      [
        directory.path + "/a_spec.lua", directory.path + "/b_test.lua", directory.path + "/nested/c_spec.lua",
        explicit,
      ])
  }

  func testSpecAndTestFilesRunTogetherAndFilterStillApplies() async throws {
    let files = [
      "math_spec.lua": "describe('math', function() it('adds', function() assert_equal(1 + 1, 2) end) end)",
      "text_test.lua": "test('text upper', function() assert_equal(('a'):upper(), 'A') end)",
      "ignored.lua": "test('never', function() error('not a test file') end)",
    ]
    let (summary, _) = try await run(files)
    XCTAssertEqual(summary.results.map(\.name), ["math adds", "text upper"])
    XCTAssertEqual(summary.results.map(\.file), ["math_spec.lua", "text_test.lua"])
    XCTAssertEqual(summary.closingLine, "2 passed, 0 failed")

    var configuration = LuaTestConfiguration()
    configuration.filter = "math"
    let (filtered, _) = try await run(files, configuration: configuration)
    XCTAssertEqual(filtered.results.map(\.name), ["math adds"])
  }

  // MARK: Order

  /// Each test's state runs its blocks' hooks once, in busted's order for a block's only test.
  func testHooksRunInBustedsOrderAroundEachTest() async throws {
    let (summary, printed) = try await run(["order_spec.lua": """
      setup(function() print("setup file") end)
      teardown(function() print("teardown file") end)
      describe("outer", function()
        setup(function() print("setup outer") end)
        lazy_setup(function() print("lazy_setup outer") end)
        before_each(function() print("before_each outer") end)
        after_each(function() print("after_each outer") end)
        lazy_teardown(function() print("lazy_teardown outer") end)
        teardown(function() print("teardown outer") end)
        it("first", function() print("first") end)
        describe("inner", function()
          setup(function() print("setup inner") end)
          before_each(function() print("before_each inner") end)
          after_each(function() print("after_each inner") end)
          teardown(function() print("teardown inner") end)
          it("second", function()
            finally(function() print("finally") end)
            print("second")
          end)
        end)
      end)
      describe("filtered out", function()
        setup(function() print("setup of a block without selected tests") end)
        it("other", function() print("other") end)
      end)
      """], configuration: LuaTestConfiguration(filter: "outer"))
    XCTAssertEqual(summary.results.map(\.name), ["outer first", "outer inner second"])
    XCTAssertEqual(summary.closingLine, "2 passed, 0 failed")
    XCTAssertEqual(printed, [
      "setup file", "setup outer", "lazy_setup outer", "before_each outer",
      "first",
      "after_each outer", "lazy_teardown outer", "teardown outer", "teardown file",

      "setup file", "setup outer", "setup inner", "lazy_setup outer", "before_each outer", "before_each inner",
      "second", "finally",
      "after_each inner", "after_each outer", "teardown inner", "lazy_teardown outer", "teardown outer", "teardown file",
    ])
  }

  // MARK: Hook failures

  func testAFailingBeforeEachFailsTheTestNamingTheHookAndStillRunsTheOuterAfterEach() async throws {
    let (summary, printed) = try await run(["hooks_spec.lua": """
      describe("outer", function()
        before_each(function() print("before outer") end)
        after_each(function() print("after outer") end)
        describe("inner", function()
          before_each(function() error("boom") end)
          before_each(function() print("before inner 2") end)
          after_each(function() print("after inner") end)
          describe("deeper", function()
            before_each(function() print("before deeper") end)
            after_each(function() print("after deeper") end)
            it("never runs", function() print("body") end)
          end)
        end)
      end)
      """])
    let failure = try failure(summary, "outer inner deeper never runs")
    XCTAssertEqual(failure.description, "hooks_spec.lua:5: before_each (hooks_spec.lua:5) failed: boom")
    // busted: the rest of the failing block's before_each hooks run, none inside it, no body;
    // the failing block's after_each hooks and the outer ones run.
    XCTAssertEqual(printed, ["before outer", "before inner 2", "after inner", "after outer"])
  }

  func testAFailingSetupFailsEveryTestOfItsBlockAndItsTeardownStillRuns() async throws {
    let (summary, printed) = try await run(["setup_spec.lua": """
      describe("database", function()
        setup(function()
          error("no database")
        end)
        lazy_teardown(function() print("lazy teardown: its setup never ran") end)
        teardown(function() print("teardown") end)
        before_each(function() print("before_each") end)
        describe("inner", function()
          setup(function() print("inner setup") end)
          teardown(function() print("inner teardown") end)
          it("a", function() print("a") end)
        end)
        it("b", function() print("b") end)
      end)
      it("elsewhere", function() print("elsewhere") end)
      """])
    XCTAssertEqual(
      try failure(summary, "database inner a").description, "setup_spec.lua:3: setup (setup_spec.lua:2) failed: no database")
    XCTAssertEqual(
      try failure(summary, "database b").description, "setup_spec.lua:3: setup (setup_spec.lua:2) failed: no database")
    XCTAssertEqual(try result(summary, "elsewhere").outcome, .passed)
    XCTAssertEqual(printed, ["teardown", "teardown", "elsewhere"])
  }

  func testFailingLazySetupTeardownAndAfterEachFailTheTest() async throws {
    let (summary, printed) = try await run(["later_spec.lua": """
      describe("lazy", function()
        lazy_setup(function() error("lazy trouble") end)
        lazy_teardown(function() print("lazy_teardown") end)
        before_each(function() print("before_each") end)
        it("test", function() print("body") end)
      end)
      describe("teardown", function()
        teardown(function() error("cleanup failed") end)
        it("passes, then its teardown fails", function() end)
      end)
      describe("after_each", function()
        after_each(function()
          error("oops")
        end)
        it("passes, then after_each fails", function() end)
        it("fails, and so does after_each", function()
          error("first")
        end)
      end)
      """])
    XCTAssertEqual(
      try failure(summary, "lazy test").description, "later_spec.lua:2: lazy_setup (later_spec.lua:2) failed: lazy trouble")
    // busted runs a block's lazy_teardown when its lazy_setup ran, failed or not.
    XCTAssertEqual(printed, ["lazy_teardown"])
    XCTAssertEqual(
      try failure(summary, "teardown passes, then its teardown fails").description,
      "later_spec.lua:8: teardown (later_spec.lua:8) failed: cleanup failed")
    XCTAssertEqual(
      try failure(summary, "after_each passes, then after_each fails").description,
      "later_spec.lua:13: after_each (later_spec.lua:12) failed: oops")
    // The test's own failure comes first; the hook's is added to it.
    XCTAssertEqual(
      try failure(summary, "after_each fails, and so does after_each").description,
      "later_spec.lua:17: first\nalso: later_spec.lua:13: after_each (later_spec.lua:12) failed: oops")
    XCTAssertEqual(summary.closingLine, "0 passed, 4 failed")
  }

  func testARunawayHookStopsTheTestThere() async throws {
    var configuration = LuaTestConfiguration()
    configuration.instructionLimit = 200_000
    let (summary, printed) = try await run(["spin_spec.lua": """
      before_each(function()
        while true do end
      end)
      after_each(function() print("after_each") end)
      teardown(function() print("teardown") end)
      it("spins", function() print("body") end)
      """], configuration: configuration)
    XCTAssertEqual(
      try failure(summary, "spins").description, "spin_spec.lua:2: before_each (spin_spec.lua:1) failed: instruction budget exhausted")
    XCTAssertEqual(printed, [])
  }

  func testHooksAndFinallyAreRefusedWhereBustedRefusesThem() async throws {
    let (summary, _) = try await run(["misplaced_spec.lua": """
      it("declares a hook", function()
        before_each(function() end)
      end)
      describe("finally in a hook", function()
        before_each(function()
          finally(function() end)
        end)
        it("test", function() end)
      end)
      it("pending in finally", function()
        finally(function()
          pending("not here")
        end)
      end)
      """])
    XCTAssertEqual(
      try failure(summary, "declares a hook").description,
      "misplaced_spec.lua:2: before_each() declares a hook: call it at the top of a test file or inside describe")
    XCTAssertEqual(
      try failure(summary, "finally in a hook test").description,
      "misplaced_spec.lua:6: before_each (misplaced_spec.lua:5) failed: finally() registers what runs after a test: call it inside the test (it)")
    XCTAssertEqual(
      try failure(summary, "pending in finally").description,
      "misplaced_spec.lua:12: finally failed: 'pending' not supported inside finally")
  }

  func testPendingInABeforeEachSkipsTheTestAndTheAfterEachStillRuns() async throws {
    let (summary, printed) = try await run(["pending_spec.lua": """
      before_each(function() pending("no server here") end)
      after_each(function() print("after_each") end)
      it("needs a server", function() print("body") end)
      """])
    let skipped = try result(summary, "needs a server")
    XCTAssertEqual(skipped.outcome, .skipped)
    XCTAssertEqual(skipped.notes, ["pending: no server here"])
    XCTAssertEqual(printed, ["after_each"])
  }

  /// The test stores' end-of-test checks come after the last hook, and fail the test.
  func testTestStoresMadeInHooksAreCheckedAfterTheLastHook() async throws {
    let (summary, _) = try await run(["store_spec.lua": """
      local relua = require "relua"
      local Ticker = relua.feature "Ticker" {
        state = { running = false },
        actions = { start = {}, stop = {} },
        reduce = relua.on {
          start = function(s, _, deps)
            s.running = true
            return relua.Effect.run(function() deps.clock.sleep(60) end):cancellable("ticker")
          end,
          stop = function(s)
            s.running = false
            return relua.Effect.cancel("ticker")
          end,
        },
      }
      local store
      before_each(function()
        store = relua.TestStore(Ticker, { deps = { clock = "test" } })
        store:send("start", function(s) s.running = true end)
      end)
      describe("stopped in after_each", function()
        after_each(function() store:send("stop", function(s) s.running = false end) end)
        it("passes", function() end)
      end)
      it("left running", function() end)
      """])
    XCTAssertEqual(try result(summary, "stopped in after_each passes").outcome, .passed)
    let failure = try failure(summary, "left running")
    XCTAssertTrue(
      failure.message.hasPrefix(
        "at the end of the test, a TestStore still has work: An effect returned for this action is still running"),
      failure.description)
  }

  // MARK: finally

  func testFinallyRunsAfterTheTestPassedOrFailed() async throws {
    let (summary, printed) = try await run(["finally_spec.lua": """
      it("fails but cleans up", function()
        finally(function() print("cleaned after failure") end)
        error("body failed")
      end)
      it("passes and cleans up", function()
        finally(function() print("cleaned after success") end)
      end)
      it("is pending and cleans up", function()
        finally(function() print("cleaned after pending") end)
        pending("later")
      end)
      it("fails in finally", function()
        finally(function()
          error("close failed")
        end)
      end)
      """])
    XCTAssertEqual(try failure(summary, "fails but cleans up").description, "finally_spec.lua:3: body failed")
    XCTAssertEqual(try result(summary, "passes and cleans up").outcome, .passed)
    XCTAssertEqual(try result(summary, "is pending and cleans up").outcome, .skipped)
    XCTAssertEqual(try failure(summary, "fails in finally").description, "finally_spec.lua:14: finally failed: close failed")
    XCTAssertEqual(printed, ["cleaned after failure", "cleaned after success", "cleaned after pending"])
  }

  // MARK: insulate and expose

  func testInsulateUndoesItsGlobalsForLaterBlocksAndExposeKeepsThem() async throws {
    let (summary, _) = try await run(["env_spec.lua": """
      insulate("insulated", function()
        shared = "insulated"
        package.loaded.fake = { loaded = true }
        it("sees its body's globals", function()
          assert_equal(shared, "insulated")
          assert_equal(require("fake").loaded, true)
        end)
      end)
      it("does not see them", function()
        assert_equal(shared, nil)
        assert_equal(package.loaded.fake, nil)
      end)
      describe("plain describe", function() plain = true end)
      it("sees a describe's globals", function() assert_equal(plain, true) end)
      insulate("with an expose", function()
        expose("exposed", function() promoted = true end)
        dropped = true
      end)
      it("sees what expose kept", function()
        assert_equal(promoted, true)
        assert_equal(dropped, nil)
      end)
      """])
    XCTAssertEqual(summary.closingLine, "4 passed, 0 failed", summary.results.compactMap(\.failure).map(\.description).joined(separator: "\n"))
  }

  // MARK: Where relua differs: block bodies run when the file loads

  /// busted runs a block's body when the run reaches it, after the tests before it and their
  /// hooks; relua runs every body when the file loads. A body using what a hook set fails the
  /// file, and the failure says which body and why.
  func testABlockBodyRaisingAsTheFileLoadsIsNamedWithTheDifferenceFromBusted() async throws {
    let (summary, _) = try await run(["body_spec.lua": """
      describe("outer", function()
        local object
        before_each(function() object = { name = "x" } end)
        it("sees the hook's object", function() assert.are.equal("x", object.name) end)
        context("inner", function()
          local name = object.name
          it("never runs", function() assert.is_string(name) end)
        end)
      end)
      """])
    XCTAssertEqual(summary.results.map(\.name), ["body_spec.lua"])
    XCTAssertEqual(try failure(summary, "body_spec.lua").description, """
      body_spec.lua:6: attempt to index a nil value (upvalue 'object')
      (raised by the body of describe "outer inner", which relua runs when the file loads, before any test or \
      hook: busted runs it when the run reaches it, so it may use what earlier tests' hooks left)
      """)
    // An error in the file's own code, outside any block, has no such line.
    let (plain, _) = try await run(["top_spec.lua": "describe('a', function() end)\nerror('at the top')"])
    XCTAssertEqual(try failure(plain, "top_spec.lua").description, "top_spec.lua:2: at the top")
  }
}
