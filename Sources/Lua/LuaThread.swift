import CLua
import CLuaShim

/// What a resume gave back.
public enum LuaResumeResult: Equatable {
  /// The coroutine yielded these values and can be resumed.
  case yielded([LuaValue])
  /// The coroutine's function returned these values; it is dead.
  case finished([LuaValue])
}

/// Where a coroutine is, as Lua's `coroutine.status` says.
public enum LuaThreadStatus: Sendable {
  /// Not started yet, or yielded: can be resumed.
  case suspended
  /// It is the thread running now.
  case running
  /// It resumed another coroutine and waits for it.
  case normal
  /// Finished or failed.
  case dead
}

/// A Lua coroutine.
public final class LuaThread: LuaRef {
  /// The coroutine's `lua_State*`, valid while this reference (or anything else) anchors it.
  func thread() throws -> (LuaState, OpaquePointer, OpaquePointer) {
    try withPushed { state, L, index in
      guard let co = lua_tothread(L, index) else { throw LuaError.conversion("not a thread") }
      return (state, L, co)
    }
  }

  /// The coroutine's `lua_State*`, for a host's C that compares it with the running thread.
  package func rawPointer() throws -> OpaquePointer { try thread().2 }

  /// The coroutine's status as seen from the thread running now.
  public var status: LuaThreadStatus {
    get throws {
      let (_, L, co) = try thread()
      return Self.status(of: co, current: L)
    }
  }

  static func status(of co: OpaquePointer, current L: OpaquePointer) -> LuaThreadStatus {
    if co == L { return .running }
    switch lua_status(co) {
    case LUA_YIELD: return .suspended
    case LUA_OK:
      var debug = lua_Debug()
      if lua_getstack(co, 0, &debug) != 0 { return .normal }
      return lua_gettop(co) == 0 ? .dead : .suspended
    default: return .dead
    }
  }

  /// Resumes with arguments; returns the yielded or returned values. An error kills the coroutine
  /// and is thrown (with the coroutine's traceback).
  public func resume(_ arguments: LuaValue...) throws -> LuaResumeResult {
    try resume(arguments: arguments)
  }

  /// Resumes with an array of arguments; returns the yielded or returned values.
  public func resume(arguments: [LuaValue]) throws -> LuaResumeResult {
    let (state, L, co) = try thread()
    let status = Self.status(of: co, current: L)
    guard status == .suspended else {
      throw LuaError.runtime(message: "cannot resume \(status == .dead ? "dead" : "non-suspended") coroutine", traceback: nil)
    }
    guard lua_checkstack(co, Int32(clamping: arguments.count + 2)) != 0 else {
      throw LuaError.memory(message: "Lua stack overflow")
    }
    let base = lua_gettop(co)
    do {
      for argument in arguments { try state.push(argument, onto: co) }
    } catch {
      lua_settop(co, base)
      throw error
    }
    var resultCount: Int32 = 0
    let result = relua_resume(co, L, Int32(arguments.count), &resultCount)
    switch result {
    case LUA_OK, LUA_YIELD:
      let top = lua_gettop(co)
      let values = state.values(from: top - resultCount + 1, to: top, in: co)
      lua_settop(co, top - resultCount)
      return result == LUA_OK ? .finished(values) : .yielded(values)
    default:
      var traceback: String?
      if relua_ptraceback(L, co) == LUA_OK {  // protected: it allocates, and memory may be short
        traceback = relua_tolstring(L, -1, nil).map { String(cString: $0) }
        lua_settop(L, -2)
      }
      let error = state.failure(status: result, on: co, traceback: traceback)
      lua_settop(co, -2)
      throw error
    }
  }

  /// Closes a suspended or dead coroutine: runs its pending to-be-closed (`<close>`) variables.
  /// Throws the error a close handler raised (or the error the coroutine died with).
  public func close() throws {
    let (state, L, co) = try thread()
    let status = Self.status(of: co, current: L)
    guard status == .suspended || status == .dead else {
      throw LuaError.runtime(message: "cannot close a \(status == .running ? "running" : "normal") coroutine", traceback: nil)
    }
    // A coroutine that died of an error already reported it from `resume`; nothing is pending.
    if status == .dead && lua_status(co) != LUA_OK { return }
    let result = relua_closethread(co)
    guard result == LUA_OK else {
      let error = state.failure(status: result, on: co, traceback: nil)
      lua_settop(co, 0)
      throw error
    }
    lua_settop(co, 0)
  }
}

extension LuaState {
  /// A new coroutine that will run `function`.
  public func thread(_ function: LuaFunction) throws -> LuaThread {
    let L = try currentThread()
    try reserve(L, 3)
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    let co = lua_newthread(L)!
    try function.push(onto: L, from: handle)
    lua_xmove(L, co, 1)
    return LuaThread(handle: handle, at: -1, in: L)
  }
}
