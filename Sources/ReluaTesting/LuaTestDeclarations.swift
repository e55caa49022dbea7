import Relua

/// The Lua functions a test file declares its tests with, as busted defines them:
///
/// - `describe(name, fn)` (also `context`), `insulate(name, fn)`, `expose(name, fn)`: blocks, whose
///   names and the test's are joined with spaces into the test's full name. Their bodies run at
///   once, when the file loads.
/// - `it(name, fn)` (also `test`, `spec`), `pending(name)` and `skip(name[, fn])` (skipped).
///   Inside a running test, `pending(reason)` ends it as skipped, with the reason (busted's
///   `pending` in an `it`): for a test that cannot run here, saying why.
/// - Hooks of the block they are called in (the file is the outermost block): `setup` /
///   `teardown` (also `strict_setup` / `strict_teardown`), `lazy_setup` / `lazy_teardown`,
///   `before_each` / `after_each`. They are only recorded here; `LuaTestRunner` runs them.
/// - `finally(fn)` inside a running test: what runs after it, passed or failed (the last call wins,
///   as in busted).
///
/// `insulate` blocks undo, when their body returns, what it changed in `_G` and `package.loaded`
/// (busted's `save`/`restore`), and keep the changes so that `prepare` can put them back for a
/// test inside the block; `expose` makes the changes made so far in an insulating parent stay
/// (busted retakes the parent's snapshot); `describe` leaves globals alone.
///
/// Run in every fresh test state before the file, with `where(level)` (the `file:line` of the Lua
/// function `level` levels above `where`) as the chunk's argument. Returns the list of
/// declarations (`{ name, fn, skipped, block }` in declaration order) and the runner's controls:
/// `seal()` (declaring from a running test is then a clear error), `prepare(index)` (puts back the
/// insulated changes around test `index` and returns the hooks of its blocks, outermost first: one
/// table per block, hook kind → list of `{ fn, name, where }`), `phase(name)` (what runs now: `it`,
/// `finally`, a hook's name, or nil), `takeFinally()` and `failedBlock()` (after the file failed to
/// load: the block whose body raised, as `describe "full name"`).
enum LuaTestDeclarations {
  static let chunkName = "=[relua test]"

  /// What a `pending(reason)` inside a running test raises, before the reason.
  static let skipMarker = "\u{1}relua pending\u{1}"

  /// The hook kinds `prepare` returns, as the runner reads them.
  enum HookKind: String, CaseIterable {
    case setup, teardown
    case lazySetup = "lazy_setup"
    case lazyTeardown = "lazy_teardown"
    case beforeEach = "before_each"
    case afterEach = "after_each"
  }

  /// Sources/ReluaTesting/Lua/test_declarations.lua, read once per process (`ReluaLuaSource`).
  static let source = ReluaLuaSource.text(
    "test_declarations.lua", in: ReluaTestingResources.luaDirectory, target: "ReluaTesting")
}
