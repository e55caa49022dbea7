import Lua

/// The metatable that marks a Lua table as an identified collection (`relua.identified{…}`), so
/// that a plain table can say "these records are unique by id" before any state hints it. It
/// lives in the registry under one key; pushing an identified collection marks its table too,
/// which makes `copy(state.results)` read back as an identified collection wherever it goes.
enum IdentifiedMarker {
  static let registryKey = "relua.identified"

  /// Makes the marker (once per state) and leaves it on the stack.
  static func pushMarker(onto L: LuaRawStack) {
    if L.getRegistryField(registryKey) == .table { return }
    L.pop()
    L.createTable(recordCount: 2)
    L.push(string: "identified")
    L.setField("__name", at: -2)
    L.pushCopy(of: -1)
    L.setRegistryField(registryKey)
  }

  /// Sets the marker as the metatable of the table on top of the stack.
  static func mark(tableAtTopOf L: LuaRawStack) {
    guard L.checkStack(2) else { return }
    pushMarker(onto: L)
    L.setMetatable(at: -2)
  }

  /// Whether the table at `index` (absolute) carries the marker.
  static func isMarked(_ index: Int32, in L: LuaRawStack) -> Bool {
    guard L.checkStack(2), L.pushMetatable(of: index) else { return false }
    L.getRegistryField(registryKey)
    defer { L.pop(2) }
    return L.rawEqual(-1, -2)
  }
}
