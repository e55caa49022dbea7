import XCTest

@testable import Relua
@testable import ReluaTesting

/// luassert's API in `relua test` (`LuaTestLuassert`): what a failing `assert.same` prints, where.
/// (Scripts/Tests/luassert_spec.lua covers the API itself.)
@MainActor
final class LuaTestLuassertTests: XCTestCase {
  private func consoleOutput(_ source: String, file: String = "luassert_spec.lua") async throws -> String {
    let directory = try LuaTestDirectory()
    try directory.write(file, source)
    let collector = LineCollector()
    let reporter = LuaTestConsoleReporter(style: .plain) { collector.write($0) }
    _ = await directory.inside { await LuaTestRunner().run(paths: ["."], reporter: reporter) }
    return collector.text
  }

  func testFailedSameOnTablesPrintsTheLuaSyntaxDiffAtTheAssertsLine() async throws {
    let text = try await consoleOutput("""
      describe("state", function()
        it("matches", function()
          local expected = { count = 1, items = { "a", "b" }, name = "x" }
          assert.are.same(expected, { count = 2, items = { "a", "b" }, name = "x" })
        end)
      end)
      """)
    XCTAssertEqual(text, """
      FAIL state matches

      Failures:

      1) state matches
         luassert_spec.lua:4: Expected objects to be the same.
         Passed in:
         (table) { count = 2, items = { "a", "b" }, name = "x" }
         Expected:
         (table) { count = 1, items = { "a", "b" }, name = "x" }
         Difference (− expected, + passed in):
             {
           −   count = 1,
           +   count = 2,
               … (2 unchanged)
             }
         stack traceback:
           luassert_spec.lua:4: in function <luassert_spec.lua:2>

      0 passed, 1 failed

      """)
  }

  func testTablesThatAreNotDataFailWithoutADiff() async throws {
    let text = try await consoleOutput("""
      it("functions", function()
        assert.same({ f = print }, { f = 1 })
      end)
      """)
    XCTAssertTrue(text.contains("luassert_spec.lua:2: Expected objects to be the same.\n"), text)
    XCTAssertFalse(text.contains("Difference"), text)
  }

  func testAssertStaysLuasAndPassingAssertionsPass() async throws {
    let text = try await consoleOutput("""
      it("passes", function()
        assert(true, "fine")
        assert.same({ 1, { 2 } }, { 1, { 2 } })
        assert.is_not.equal(1, 2)
        local s = spy.new(function() end)
        s(1)
        assert.spy(s).was.called_with(1)
      end)
      it("fails as Lua's assert", function() assert(false, "plain") end)
      """)
    XCTAssertTrue(text.contains("PASS passes\n"), text)
    XCTAssertTrue(text.contains("luassert_spec.lua:9: plain\n"), text)
  }
}
