import CLua
import CLuaShim

extension LuaState {
  /// Turns a failed status into a `LuaError`. The error object is on top of `L` (left there).
  func failure(status: Int32, on L: OpaquePointer, traceback: String?) -> LuaError {
    let control = self.control
    if status == LUA_ERRMEM || (status == LUA_ERRERR && control?.pointee.memory_limit_hit == 1) {
      if let control, control.pointee.memory_limit_hit != 0 {
        return .memory(message: "memory limit of \(control.pointee.memory_limit) bytes exceeded")
      }
      return .memory(message: "not enough memory")
    }
    if let control {
      if control.pointee.budget_exhausted != 0 {
        let raised = errorMessage(at: -1, in: L)
        return .instructionLimit(location: LuaError.location(in: raised, before: LuaError.instructionLimitMessage))
      }
      if control.pointee.interrupted != 0 {
        let raised = errorMessage(at: -1, in: L)
        return .interrupted(location: LuaError.location(in: raised, before: LuaError.interruptedMessage))
      }
    }
    if let box = relua_toerror(L, -1), let context = box.pointee.context {
      let error = Unmanaged<LuaErrorBox>.fromOpaque(context).takeUnretainedValue().error
      if let luaError = error as? LuaError { return luaError }
      return .callback(error)
    }
    let message = errorMessage(at: -1, in: L)
    switch status {
    case LUA_ERRSYNTAX: return .syntax(message: message, incompleteInput: message.hasSuffix("<eof>"))
    case LUA_ERRERR: return .runtime(message: "error in error handling: \(message)", traceback: traceback)
    case 6 /* LUA_ERRFILE */: return .file(message)
    default: return .runtime(message: message, traceback: traceback)
    }
  }

  /// The text of an error object: strings as they are, numbers formatted, others by `__tostring`
  /// (protected) or their type.
  func errorMessage(at index: Int32, in L: OpaquePointer) -> String {
    switch lua_type(L, index) {
    case LUA_TSTRING:
      var length = 0
      let pointer = lua_tolstring(L, index, &length)
      return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
    case LUA_TNUMBER:
      return value(at: index, in: L).description
    case LUA_TNIL:
      return "nil"
    default:
      let typeName = LuaType(rawValue: lua_type(L, index))?.description ?? "unknown"
      guard lua_checkstack(L, 3) != 0 else { return "(error object is a \(typeName) value)" }
      let status = relua_ptostring(L, index)
      defer { lua_settop(L, -2) }
      if status == LUA_OK, let text = relua_tolstring(L, -1, nil) { return String(cString: text) }
      return "(error object is a \(typeName) value)"
    }
  }

  /// The traceback the message handler stored for the last failed call (and forgets it).
  func takeTraceback(_ L: OpaquePointer) -> String? {
    guard lua_checkstack(L, 2) != 0 else { return nil }
    relua_getmetatable_registry(L, RELUA_TRACEBACK_KEY)
    defer { lua_settop(L, -2) }
    guard let text = relua_tolstring(L, -1, nil) else { return nil }
    let traceback = String(cString: text)
    lua_pushnil(L)
    lua_setfield(L, luaRegistryIndex, RELUA_TRACEBACK_KEY)
    return traceback
  }

  /// Called by the trampoline's Swift side when a Swift function threw: leaves what the C
  /// trampoline needs on the stack and returns the status telling it to raise.
  func raise(_ error: any Error, on L: OpaquePointer) -> Int32 {
    _ = lua_checkstack(L, 4)
    switch error {
    case LuaError.argument(let position, let message):
      lua_pushinteger(L, lua_Integer(position))
      LuaStack(L, self).push(message)
      return RELUA_STATUS_ARGERROR
    case LuaError.runtime(let message, _):
      // A Lua error passing back through Swift stays a plain Lua error message.
      LuaStack(L, self).push(message)
      return RELUA_STATUS_ERROR
    case LuaError.callback(let inner):
      pushErrorObject(inner, on: L)
      return RELUA_STATUS_ERROR
    default:
      pushErrorObject(error, on: L)
      return RELUA_STATUS_ERROR
    }
  }

  /// A userdata carrying the Swift error through Lua; `tostring` gives its description.
  func pushErrorObject(_ error: any Error, on L: OpaquePointer) {
    LuaStack(L, self).push(String(describing: error))
    let box = LuaErrorBox(error)
    relua_pusherror(L, Unmanaged.passRetained(box).toOpaque(), luaReleaseBox)
  }
}

/// Holds a Swift error while it travels through Lua.
final class LuaErrorBox {
  let error: any Error
  init(_ error: any Error) { self.error = error }
}

/// Releases the +1 reference a Lua box held (closures, userdata objects, error objects).
func luaReleaseBox(_ context: UnsafeMutableRawPointer?) {
  guard let context else { return }
  Unmanaged<AnyObject>.fromOpaque(context).release()
}
