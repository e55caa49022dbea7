import CLua
import CLuaShim
import Synchronization

/// The shared "alive" box between a `LuaState` and the references into it. References hold it
/// strongly (not the state): once the state is closed, `mainThread` is nil and every use of a
/// reference throws `LuaError.closed` instead of touching freed memory.
@usableFromInline
final class LuaStateHandle {
  private(set) var mainThread: OpaquePointer?
  /// `@exclusivity(unchecked)`: read on every call into Lua, inlined into other modules (where a
  /// dynamic exclusivity check costs more than the whole read); written only when the state closes.
  @usableFromInline @exclusivity(unchecked) private(set) var control: UnsafeMutablePointer<relua_control>?
  /// Valid while `mainThread` is not nil: the state closes (and clears it) before it goes away.
  unowned(unsafe) var owner: LuaState?
  /// Registry references made by Swift that are still alive.
  var liveReferences = 0
  /// References released by `deinit`s, waiting to be unreferenced by the state's own thread. A Swift
  /// value holding a reference can be freed on any thread (the last owner of an effect's closure
  /// may be an executor thread); `luaL_unref` writes the registry, which only the code running the
  /// state may do. So releases are queued here and done at the next access (`drainReleases`).
  private let pendingReleases = Mutex<[Int32]>([])
  @usableFromInline let pendingCount = Atomic<Int>(0)

  init(mainThread: OpaquePointer) {
    self.mainThread = mainThread
    self.control = relua_getcontrol(mainThread)
  }

  var isAlive: Bool { mainThread != nil }

  /// The state and the thread Swift code should work on now: the thread of the Swift function
  /// Lua is calling, or the main thread.
  @inline(__always)
  func access() throws(LuaError) -> (LuaState, OpaquePointer) {
    // The thread first: it throws once the state closed, before `owner` (unowned) is touched.
    let thread = try currentThread()
    guard let owner else { throw .closed }
    return (owner, thread)
  }

  /// The thread Swift code should work on now (see `access`), without the state. Inlinable: a
  /// handler call asks for it on every send.
  @inlinable @inline(__always)
  func currentThread() throws(LuaError) -> OpaquePointer {
    guard let control else { throw .closed }
    if pendingCount.load(ordering: .relaxed) > 0 { drainReleases() }
    return control.pointee.current
  }

  /// Unreferences the queued releases (on the thread using the state).
  @usableFromInline
  func drainReleases() {
    guard let control else { return }
    let references = pendingReleases.withLock { queued -> [Int32] in
      defer { queued.removeAll(keepingCapacity: true) }
      return queued
    }
    guard !references.isEmpty else { return }
    pendingCount.subtract(references.count, ordering: .relaxed)
    let L: OpaquePointer = control.pointee.current
    for reference in references { luaL_unref(L, luaRegistryIndex, reference) }
    liveReferences -= references.count
  }

  func markClosed() {
    mainThread = nil
    control = nil
    owner = nil
  }

  /// Anchors the value at `index` of `L` in the registry.
  func reference(_ L: OpaquePointer, _ index: Int32) -> Int32 {
    guard isAlive else { return LUA_NOREF }
    lua_pushvalue(L, index)
    liveReferences += 1
    return luaL_ref(L, luaRegistryIndex)
  }

  /// Queues a reference for release (any thread; see `pendingReleases`).
  func release(_ reference: Int32) {
    guard control != nil, reference != LUA_NOREF, reference != LUA_REFNIL else { return }
    pendingReleases.withLock { $0.append(reference) }
    pendingCount.add(1, ordering: .relaxed)
  }
}

let luaRegistryIndex: Int32 = relua_registryindex()
