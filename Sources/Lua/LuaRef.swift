import CLua
import CLuaShim

/// A Lua value kept alive by Swift through a registry reference (base of `LuaTable`,
/// `LuaFunction`, `LuaThread`, `LuaUserdata`). The reference is released exactly once, on deinit.
/// Using it after its state closed throws `LuaError.closed`.
public class LuaRef {
  let handle: LuaStateHandle
  let reference: Int32

  init(handle: LuaStateHandle, reference: Int32) {
    self.handle = handle
    self.reference = reference
  }

  /// Anchors the value at `index` of `L`.
  required convenience init(handle: LuaStateHandle, at index: Int32, in L: OpaquePointer) {
    self.init(handle: handle, reference: handle.reference(L, index))
  }

  deinit { handle.release(reference) }

  /// The registry reference, for an owner that keeps this value alive and pushes it on a hot path
  /// of its own state with `lua_rawgeti` (no checks: `push(onto:)` is the checked way).
  package var registryReference: Int32 { reference }

  /// Whether the state this value lives in is still open.
  public var isValid: Bool { handle.isAlive && reference != LUA_NOREF }

  /// The state this value lives in.
  public func state() throws(LuaError) -> LuaState { try handle.access().0 }

  /// The registry reference, checked: the value belongs to the state of `handle`, which is open.
  @inline(__always)
  func reference(in handle: LuaStateHandle) throws(LuaError) -> Int32 {
    guard self.handle === handle else {
      throw .conversion("a Lua value cannot move to another Lua state")
    }
    guard handle.isAlive, reference != LUA_NOREF else { throw .closed }
    return reference
  }

  /// Pushes the value onto `L`; the caller has checked the stack space.
  @inline(__always)
  func push(onto L: OpaquePointer, from handle: LuaStateHandle) throws(LuaError) {
    lua_rawgeti(L, luaRegistryIndex, lua_Integer(try reference(in: handle)))
  }

  /// Runs `body` with the value pushed on the current thread; restores the stack afterwards.
  func withPushed<R>(_ body: (LuaState, OpaquePointer, Int32) throws -> R) throws -> R {
    let (state, L) = try handle.access()
    let top = lua_gettop(L)
    guard lua_checkstack(L, 8) != 0 else { throw LuaError.memory(message: "Lua stack overflow") }
    defer { lua_settop(L, top) }
    try push(onto: L, from: handle)
    return try body(state, L, top + 1)
  }

  /// The address Lua gives the value (`lua_topointer`): equal for the same table, function,
  /// thread or userdata while it lives, so hosts can key caches by it.
  public func identity() throws -> UnsafeRawPointer {
    try withPushed { _, L, index in
      guard let pointer = lua_topointer(L, index) else { throw LuaError.conversion("this value has no identity") }
      return pointer
    }
  }

  /// Pushes the value onto a raw stack the caller reserved a slot on (for hot paths).
  @usableFromInline
  package func push(onto L: OpaquePointer) throws(LuaError) { try push(onto: L, from: handle) }

  func isSameValue(as other: LuaRef) -> Bool {
    guard handle === other.handle else { return false }
    return (try? withPushed { _, L, index in
      try other.push(onto: L, from: handle)
      return lua_rawequal(L, index, -1) != 0
    }) ?? false
  }

  var identityDescription: String {
    (try? withPushed { _, L, index in String(describing: lua_topointer(L, index)) }) ?? "(closed)"
  }
}
