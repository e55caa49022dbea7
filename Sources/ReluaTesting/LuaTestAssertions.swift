import Relua

/// The assertion helpers of test files, besides Lua's own `assert`:
/// `assert_equal(actual, expected[, message])` and `expect(actual).to_be(expected)` (also
/// `to_equal`, `not_to_be`, `to_be_nil`, `to_be_truthy`, `to_contain(text)`, `to_match(pattern)`,
/// `to_error([text])`; `:` works as well as `.`).
///
/// Equality is deep for plain tables (raw contents, cycles allowed; tables with `__eq` use it) and
/// Lua's `==` otherwise, so `1 == 1.0`. Failures raise at the test's line (level 2 from the
/// caller) with a readable message: `expected 3, got 4`, tables rendered on one line as the REPL
/// prints values, and cut by the same rule (`{ 1, 2, name = "x" }`, `{ 1, 2, … 999,998 more }`).
enum LuaTestAssertions {
  static let chunkName = "=[relua assertions]"

  /// Sources/ReluaTesting/Lua/test_assertions.lua, read once per process (`ReluaLuaSource`).
  static let source = ReluaLuaSource.text(
    "test_assertions.lua", in: ReluaTestingResources.luaDirectory, target: "ReluaTesting")
}
