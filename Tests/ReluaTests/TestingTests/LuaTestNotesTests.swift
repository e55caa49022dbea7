import XCTest

@testable import Relua
@testable import ReluaTesting

/// A test store's skipped assertions (`store:exhaustive(false, { showSkipped = true })`): notes on
/// the test's result, printed under it, never failures.
@MainActor
final class LuaTestNotesTests: XCTestCase {
  private let suite = """
    local relua = require "relua"
    local Counter = relua.feature "Counter" {
      state = { count = 0, isEven = true },
      actions = { increment = {} },
      reduce = relua.on { increment = function(s) s.count, s.isEven = s.count + 1, not s.isEven end },
    }
    test("notes", function()
      local store = relua.TestStore(Counter)
      store:exhaustive(false, { showSkipped = true })
      store:send("increment", function(s) s.count = 1 end)
    end)
    test("quiet", function()
      local store = relua.TestStore(Counter)
      store:exhaustive(false)
      store:send("increment", function(s) s.count = 1 end)
    end)
    """

  private func output(_ makeReporter: (@escaping (String) -> Void) -> any LuaTestReporter) async throws -> (LuaTestSummary, String) {
    let directory = try LuaTestDirectory()
    try directory.write("notes_test.lua", suite)
    let collector = LineCollector()
    let reporter = makeReporter { collector.write($0) }
    let summary = await directory.inside { await LuaTestRunner().run(paths: ["."], reporter: reporter) }
    return (summary, collector.text)
  }

  func testNotesAreOnTheResultAndTheTestPasses() async throws {
    let (summary, _) = try await output { _ in LuaTestSilentReporter() }
    XCTAssertEqual(summary.failed, 0)
    XCTAssertEqual(summary.results.map(\.notes.count), [1, 0])
    let note = try XCTUnwrap(summary.results.first?.notes.first)
    XCTAssert(note.hasPrefix("notes_test.lua:10: Skipped assertions.\n\nA state change does not match expectation: …"), note)
  }

  func testConsolePrintsNotesUnderTheTest() async throws {
    let (_, text) = try await output { LuaTestConsoleReporter(style: .plain, write: $0) }
    XCTAssertEqual(text, """
      PASS notes
          note: notes_test.lua:10: Skipped assertions.

                A state change does not match expectation: …

                      {
                        … (1 unchanged)
                    −   isEven = true,
                    +   isEven = false,
                      }

                (Expected: −, Actual: +)
      PASS quiet

      2 passed, 0 failed

      """)
  }

  func testTAPPrintsNotesAsComments() async throws {
    let (_, text) = try await output { LuaTestTAPReporter(write: $0) }
    XCTAssert(text.contains("""
      ok 1 - notes
      # note: notes_test.lua:10: Skipped assertions.
      #
      #   A state change does not match expectation: …
      """), text)
    XCTAssert(text.contains("#   (Expected: −, Actual: +)\nok 2 - quiet\n"), text)
  }
}
