import Relua

/// The modules a busted spec may `require` in `relua test`, preloaded in every test's state
/// (`package.preload`, which sandboxed states search too): relua's own implementations, so a spec
/// gets the functions relua runs — never a busted or luassert installed on the system (trusted
/// states search `package.path` too).
///
/// - `busted`: the functions busted gives specs (`describe`, `it`, the hooks, `assert`, `spy`…),
///   as `require('busted').it`; a name relua has not raises, saying so. `busted.runner`: a function
///   doing nothing (`require 'busted.runner'()` at the top of a spec made to run alone under lua).
/// - `luassert`, `luassert.spy`, `luassert.stub`, `luassert.mock`, `luassert.match`: relua's
///   `assert`, `spy`, `stub`, `mock`, `match` (LuaTestLuassert); `luassert.util`, the helpers
///   luassert's specs and extensions use (`make_arglist`, `deepcompare`, `tinsert`…).
/// - `say`: luassert's message store, the one registered assertions' messages are read from.
///
/// Run after `LuaTestDeclarations` and `LuaTestLuassert`, with the table the latter returns.
enum LuaTestModules {
  static let chunkName = "=[relua test modules]"

  /// Sources/ReluaTesting/Lua/test_modules.lua, read once per process (`ReluaLuaSource`).
  static let source = ReluaLuaSource.text(
    "test_modules.lua", in: ReluaTestingResources.luaDirectory, target: "ReluaTesting")
}
