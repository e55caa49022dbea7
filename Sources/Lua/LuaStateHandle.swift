import CLua
import CLuaShim

/// The shared "alive" box between a `LuaState` and the references into it. References hold it
/// strongly (not the state): once the state is closed, `mainThread` is nil and every use of a
/// reference throws `LuaError.closed` instead of touching freed memory.
final class LuaStateHandle {
  private(set) var mainThread: OpaquePointer?
  private(set) var control: UnsafeMutablePointer<relua_control>?
  /// Valid while `mainThread` is not nil: the state closes (and clears it) before it goes away.
  unowned(unsafe) var owner: LuaState?
  /// Registry references made by Swift that are still alive.
  var liveReferences = 0

  init(mainThread: OpaquePointer) {
    self.mainThread = mainThread
    self.control = relua_getcontrol(mainThread)
  }

  var isAlive: Bool { mainThread != nil }

  /// The state and the thread Swift code should work on now: the thread of the Swift function
  /// Lua is calling, or the main thread.
  @inline(__always)
  func access() throws(LuaError) -> (LuaState, OpaquePointer) {
    guard let control, let owner else { throw .closed }
    return (owner, control.pointee.current)
  }

  func markClosed() {
    mainThread = nil
    control = nil
  }

  /// Anchors the value at `index` of `L` in the registry.
  func reference(_ L: OpaquePointer, _ index: Int32) -> Int32 {
    guard isAlive else { return LUA_NOREF }
    lua_pushvalue(L, index)
    liveReferences += 1
    return luaL_ref(L, luaRegistryIndex)
  }

  func release(_ reference: Int32) {
    guard let control, reference != LUA_NOREF, reference != LUA_REFNIL else { return }
    let L: OpaquePointer = control.pointee.current
    luaL_unref(L, luaRegistryIndex, reference)
    liveReferences -= 1
  }
}

let luaRegistryIndex: Int32 = relua_registryindex()
