import Relua

import Lua

/// luassert's API in test files (busted's assertions): the global `assert` stays Lua's own when
/// called (`assert(v, msg)`), and gains luassert's chains: `assert.same`, `assert.are.equal`,
/// `assert.is_true`, `assert.is_not.Nil`, `assert.has_error`, `assert.has_no.errors`,
/// `assert.matches`, type checks, `assert.spy(s).was.called_with(...)`. Keys split at `_` into
/// modifiers (`is`, `are`, `was`, `has`, `does`; `not`/`no` negate) and one assertion, in any
/// case. Also the globals `spy`, `stub`, `mock` and `match` (matchers for `called_with`), and
/// luassert's extension API: `assert:register` (assertions, modifiers, matchers, with messages
/// from `say`), `assert:format`, `assert:add_formatter`, `assert:set_parameter`.
///
/// Failures are luassert's messages (`Expected objects to be the same.\nPassed in:\n…`), raised at
/// the test's line, after a custom message when one is given (as luassert puts it); a failed
/// `same`/`equal` on two tables of plain data adds their diff in Lua syntax (`ValueDiff`, from
/// expected to passed in), as the TestStore's state mismatches.
///
/// Run in a test's state after `ReluaHost` is installed, with the value printer
/// (`LuaValuePrinter`) and `diff(expected, actual)` (text or nil) as the chunk's arguments.
/// Returns the modules `LuaTestModules` preloads: `{ assert, spy, stub, mock, match, say, util }`.
enum LuaTestLuassert {
  static let chunkName = "=[relua luassert]"

  /// `diff(expected, actual)`: the tables' diff in Lua syntax, nil when equal as `Value`s; raises
  /// when a table is not a `Value` (the chunk then leaves the diff out).
  @MainActor
  static func diffFunction(in state: LuaState, host: ReluaHost) throws -> LuaFunction {
    try state.function { [weak host] stack in
      // Lua calls it on the state's actor, the main one.
      let text = try MainActor.assumeIsolated { () throws -> String? in
        guard let host else { return nil }
        let expected = try host.value(from: stack.value(at: 1))
        let actual = try host.value(from: stack.value(at: 2))
        return ValueDiff.lines(from: expected, to: actual)
      }
      guard let text else { return [] }
      return [.text(text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))]
    }
  }

  /// Sources/ReluaTesting/Lua/test_luassert.lua, read once per process (`ReluaLuaSource`).
  static let source = ReluaLuaSource.text(
    "test_luassert.lua", in: ReluaTestingResources.luaDirectory, target: "ReluaTesting")
}
