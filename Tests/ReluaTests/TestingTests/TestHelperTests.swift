import Lua
import XCTest

@testable import Relua
@testable import ReluaTesting

/// `relua.testing.<name>(…)`: helpers a program registers for its Lua tests
/// (`ReluaHost.registerTestHelper`), which run in tests only and raise at the script's line
/// anywhere else, or when nothing registered the name.
@MainActor
final class TestHelperTests: XCTestCase {
  /// `relua.testing.twice(n)`, and one that fails.
  static let twice = ReluaTestHelper("twiceForTests") { arguments in
    guard case .integer(let n)? = arguments.first else {
      throw ReluaTestHelper.ArgumentError(position: 1, "relua.testing.twiceForTests(n): an integer")
    }
    return [.integer(n * 2), .string("doubled")]
  }
  static let broken = ReluaTestHelper("brokenForTests") { _ in
    struct CannotListen: Error, CustomStringConvertible { var description: String { "cannot listen on 127.0.0.1:0: no" } }
    throw CannotListen()
  }

  func testHelpersRunInTestsWithValuesBothWaysAndRaiseAtTheLine() async throws {
    ReluaHost.registerTestHelper(Self.twice)
    ReluaHost.registerTestHelper(Self.broken)
    let directory = try LuaTestDirectory()
    try directory.write("helpers_test.lua", """
      local relua = require "relua"
      local TOP = relua.testing.twiceForTests(1)            -- top-level code of a test file: a test too
      test("values", function()
        local n, why = relua.testing.twiceForTests(21)
        assert_equal({ TOP, n, why }, { 2, 42, "doubled" })
      end)
      test("bad argument", function()
        relua.testing.twiceForTests("x")
      end)
      test("a failing helper", function()
        relua.testing.brokenForTests()
      end)
      test("unregistered", function()
        local f = relua.testing.notRegisteredAnywhere
      end)
      test("read-only", function()
        relua.testing.mine = function() end
      end)
      """)
    let summary = await directory.inside { await LuaTestRunner().run(paths: ["."]) }
    XCTAssertEqual(summary.closingLine, "1 passed, 4 failed", "\(summary.results)")
    func failure(_ name: String) throws -> String {
      try XCTUnwrap(summary.results.first { $0.name == name }?.failure?.description, name)
    }
    XCTAssertEqual(
      try failure("bad argument"),
      "helpers_test.lua:8: bad argument #1 to 'twiceForTests' (relua.testing.twiceForTests(n): an integer)")
    XCTAssertEqual(try failure("a failing helper"), "helpers_test.lua:11: relua.testing.brokenForTests: cannot listen on 127.0.0.1:0: no")
    let unregistered = try failure("unregistered")
    XCTAssertTrue(unregistered.hasPrefix(
      "helpers_test.lua:14: relua.testing.notRegisteredAnywhere: no test helper of this name is registered in this program (registered: "),
      unregistered)
    XCTAssertTrue(unregistered.contains("twiceForTests"), unregistered)
    XCTAssertTrue(unregistered.hasSuffix("; a program registers its own with ReluaHost.registerTestHelper)"), unregistered)
    XCTAssertEqual(
      try failure("read-only"),
      "helpers_test.lua:17: relua.testing is read-only (assigning 'mine'): a program registers helpers with ReluaHost.registerTestHelper")
  }

  /// Outside a test — a state that `relua run`, the REPL or an embedding program makes — a
  /// registered helper raises at the calling line, saying it is for tests.
  func testAHelperOutsideATestRaisesAtTheScriptLine() async throws {
    ReluaHost.registerTestHelper(Self.twice)
    let lua = try LuaState(options: LuaOptions())
    defer { lua.close() }
    try ReluaHost.install(in: lua)
    XCTAssertThrowsError(try lua.execute("""
      local relua = require "relua"
      return relua.testing.twiceForTests(1)
      """, name: "@script.lua")) { error in
      XCTAssertEqual(
        "\(error)".components(separatedBy: "\n").first,
        "script.lua:2: relua.testing.twiceForTests() is a test helper: it runs only in tests (relua test), not in this script")
    }
  }
}
