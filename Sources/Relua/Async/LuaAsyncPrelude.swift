/// The Lua half of the coroutine driver, run once per state by `LuaCoroutineDriver`.
///
/// Awaitables themselves are C (`relua_pushawaitable`): they check where they run, call their
/// Swift half and yield, and raise a failed await's message at the script line that awaited; the
/// yield happens in C, never across a Swift frame.
///
/// Returns: `spawn(fn) -> thread`, `where(thread) -> "src:line", traceback`.
enum LuaAsyncPrelude {
  static let chunkName = "=[relua async]"

  /// Sources/Relua/Lua/async.lua, read once per process (`ReluaLuaSource`).
  static let source = ReluaLuaSource.text("async.lua")
}
