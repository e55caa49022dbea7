import CLua
import CLuaShim

extension LuaState {
  /// Sets the global `name` to a function returning liblua's own `find`, `match`, `gmatch` and
  /// `gsub`, which relua's states replace with its budgeted matcher (CLuaShim/pattern.c): what
  /// the differential check against Lua's matcher (Fuzz/pattern-differential.lua) compares with.
  /// For tests and fuzzing only: nothing stops liblua's matcher.
  package func installLibluaPatternFunctions(asGlobal name: String) throws {
    try withRawState { L in
      lua_pushcclosure(L, relua_pattern_originals, 0)
      lua_setglobal(L, name)
    }
  }
}
