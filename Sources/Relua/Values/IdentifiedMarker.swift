import CLua
import CLuaShim

/// The metatable that marks a Lua table as an identified collection (`relua.identified{…}`), so
/// that a plain table can say "these records are unique by id" before any state hints it. It
/// lives in the registry under one key; pushing an identified collection marks its table too,
/// which makes `copy(state.results)` read back as an identified collection wherever it goes.
enum IdentifiedMarker {
  static let registryKey = "relua.identified"

  /// Makes the marker (once per state) and leaves it on the stack.
  static func pushMarker(onto L: OpaquePointer) {
    if lua_getfield(L, relua_registryindex(), registryKey) == LUA_TTABLE { return }
    lua_settop(L, -2)
    lua_createtable(L, 0, 2)
    pushLuaString("identified", onto: L)
    lua_setfield(L, -2, "__name")
    lua_pushvalue(L, -1)
    lua_setfield(L, relua_registryindex(), registryKey)
  }

  /// Sets the marker as the metatable of the table on top of the stack.
  static func mark(tableAtTopOf L: OpaquePointer) {
    guard lua_checkstack(L, 2) != 0 else { return }
    pushMarker(onto: L)
    lua_setmetatable(L, -2)
  }

  /// Whether the table at `index` (absolute) carries the marker.
  static func isMarked(_ index: Int32, in L: OpaquePointer) -> Bool {
    guard lua_checkstack(L, 2) != 0, lua_getmetatable(L, index) != 0 else { return false }
    lua_getfield(L, relua_registryindex(), registryKey)
    defer { lua_settop(L, -3) }
    return lua_rawequal(L, -1, -2) != 0
  }
}
