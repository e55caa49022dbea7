import CLua
import CLuaShim

extension LuaState {
  /// Turns a failed status into a `LuaError`. The error object is on top of `L` (left there).
  func failure(status: Int32, on L: OpaquePointer, traceback: String?) -> LuaError {
    let control = self.control
    if status == LUA_ERRMEM || (status == LUA_ERRERR && control?.pointee.memory_limit_hit ?? 0 != 0) {
      if let control, control.pointee.memory_limit_hit == 1 {
        return .memory(message: "memory limit of \(control.pointee.memory_limit) bytes exceeded")
      }
      return .memory(message: "not enough memory")
    }
    if let control {
      if control.pointee.budget_exhausted != 0 {
        // Where the budget ran out, as the hook first raised it: the error that reaches Swift may
        // be another by then (a reducer's, wrapping it, on its way out through `store:send`).
        let exhaustedWhere = withUnsafeBytes(of: control.pointee.exhausted_where) { bytes in
          String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        if exhaustedWhere.hasSuffix(": ") { return .instructionLimit(location: String(exhaustedWhere.dropLast(2))) }
        let raised = errorMessage(at: -1, in: L)
        return .instructionLimit(location: LuaError.location(in: raised, before: LuaError.instructionLimitMessage))
      }
      let raised = control.pointee.interrupted != 0 || control.pointee.interrupt_raised != 0 ? errorMessage(at: -1, in: L) : ""
      // (A catchable interrupt that no pcall caught is an interrupt too.)
      if control.pointee.interrupted != 0 || raised.hasSuffix(LuaError.interruptedMessage) {
        return .interrupted(location: LuaError.location(in: raised, before: LuaError.interruptedMessage), traceback: traceback)
      }
    }
    if let box = relua_toerror(L, -1), let context = box.pointee.context {
      let carried = Unmanaged<LuaErrorBox>.fromOpaque(context).takeUnretainedValue()
      if let luaError = carried.error as? LuaError { return luaError }
      return .callback(carried.error, location: carried.location, traceback: traceback)
    }
    let message = errorMessage(at: -1, in: L)
    switch status {
    case LUA_ERRSYNTAX: return .syntax(message: message, incompleteInput: message.hasSuffix("<eof>"))
    case LUA_ERRERR: return .runtime(message: "error in error handling: \(message)", traceback: traceback)
    case 6 /* LUA_ERRFILE */: return .file(message)
    default: return .runtime(message: message, traceback: traceback)
    }
  }

  /// Instructions a script's `__tostring` may run when the host describes its error object. The
  /// host runs it on its own behalf, after the script's call has failed: without a budget of its
  /// own, a `__tostring` that loops would hang the host (`relua run` has no limit by default).
  public static let errorDescriptionBudget = 1_000_000

  /// The text of an error object: strings as they are, numbers formatted, others by `__tostring`
  /// (protected, within `errorDescriptionBudget` instructions) or, when that fails, a fallback
  /// naming the type and why (`(error object is a table; its __tostring failed: …)`).
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
      let index = lua_absindex(L, index)
      let hasToString = luaL_getmetafield(L, index, "__tostring") != LUA_TNIL
      if hasToString {
        lua_settop(L, -2)
      } else if namesErrorObjectsByType {
        return "(error object is a \(typeName) value)"
      }
      var exhausted = false
      let status = withOwnInstructionBudget(Self.errorDescriptionBudget, exhausted: &exhausted) { relua_ptostring(L, index) }
      defer { lua_settop(L, -2) }
      if status == LUA_OK, let text = relua_tolstring(L, -1, nil) { return String(cString: text) }
      guard hasToString else { return "(error object is a \(typeName) value)" }
      let why: String
      if exhausted {
        why = "it ran past \(Self.errorDescriptionBudget) instructions"
      } else if status == LUA_ERRMEM {
        why = "not enough memory"
      } else if lua_type(L, -1) == LUA_TSTRING, let text = relua_tolstring(L, -1, nil) {
        why = String(cString: text)
      } else {
        why = "it raised a \(LuaType(rawValue: lua_type(L, -1))?.description ?? "unknown") value"
      }
      return "(error object is a \(typeName); its __tostring failed: \(why))"
    }
  }

  /// Runs `body` (one protected entry into Lua on the host's behalf) under a budget of its own of
  /// `budget` instructions, whatever the state's limit and whatever the call it is nested in has
  /// spent; puts the state's budget back as it was. `exhausted`: whether `body` ran out.
  func withOwnInstructionBudget<R>(_ budget: Int, exhausted: inout Bool, _ body: () -> R) -> R {
    guard let control else { return body() }
    let saved = control.pointee
    control.pointee.instruction_limit = Int64(budget)
    control.pointee.instructions_remaining = Int64(budget)
    control.pointee.budget_exhausted = 0
    control.pointee.exhausted_where.0 = 0
    control.pointee.shared_budget = 0  // an outermost entry starts from `instruction_limit`
    let result = body()
    exhausted = control.pointee.budget_exhausted != 0 && control.pointee.interrupted == 0
    control.pointee.instruction_limit = saved.instruction_limit
    control.pointee.instructions_remaining = saved.instructions_remaining
    control.pointee.budget_exhausted = saved.budget_exhausted
    control.pointee.exhausted_where = saved.exhausted_where
    control.pointee.shared_budget = saved.shared_budget
    control.pointee.hook_step = saved.hook_step
    return result
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
    case LuaError.callback(let inner, let location, _):
      // Raised again on its way out: it keeps the place it was first raised from, if it had one.
      pushSwiftError(inner, placedAt: location, on: L)
      return RELUA_STATUS_ERROR
    case LuaError.memory:
      // A limit the host holds for the script (its state, shares, payloads): placed at the
      // script's line that asked for more, as Lua's own errors are.
      pushErrorObject(error, description: String(describing: error), location: Self.scriptLocation(L), on: L)
      return RELUA_STATUS_ERROR
    case is LuaError:
      pushErrorObject(error, description: String(describing: error), location: nil, on: L)
      return RELUA_STATUS_ERROR
    default:
      pushSwiftError(error, placedAt: nil, on: L)
      return RELUA_STATUS_ERROR
    }
  }

  /// The error object of a Swift error, placed: at `location` if it has one already, else at the
  /// script's place (as `luaL_error` places Lua's own), unless its text starts with a place (an
  /// error of Lua code the function ran, wrapped: a reducer's names the handler's line).
  private func pushSwiftError(_ error: any Error, placedAt location: String?, on L: OpaquePointer) {
    let description = String(describing: error)
    let placed = location != nil || description.prefixMatch(of: #/[^\n:]+:\d+: /#) != nil
    pushErrorObject(error, description: description, location: placed ? location : Self.scriptLocation(L), on: L)
  }

  /// A userdata carrying the Swift error through Lua; `tostring` gives `location: description`.
  private func pushErrorObject(_ error: any Error, description: String, location: String?, on L: OpaquePointer) {
    LuaStack(L, self).push(location.map { "\($0): \(description)" } ?? description)
    let box = LuaErrorBox(error, location: location)
    relua_pusherror(L, Unmanaged.passRetained(box).toOpaque(), luaReleaseBox)
  }

  /// `chunk:line` of the innermost script code running on `L`: the first frame, from the caller
  /// of the running function outwards, that is Lua code with a line (not C) and not in one of the
  /// host's own chunks (named `=[…]`). Nil when there is none within a few levels.
  package static func scriptLocation(_ L: OpaquePointer) -> String? {
    var record = lua_Debug()
    for level: Int32 in 1...8 {
      guard lua_getstack(L, level, &record) != 0, lua_getinfo(L, "Sl", &record) != 0 else { return nil }
      guard record.currentline > 0 else { continue }
      let source = LuaRawStack.shortSource(&record)
      if source.hasPrefix("[") { continue }
      return "\(source):\(record.currentline)"
    }
    return nil
  }
}

/// Holds a Swift error while it travels through Lua, with the script's place it was raised from.
final class LuaErrorBox {
  let error: any Error
  let location: String?
  init(_ error: any Error, location: String?) {
    self.error = error
    self.location = location
  }
}

/// Releases the +1 reference a Lua box held (closures, userdata objects, error objects).
func luaReleaseBox(_ context: UnsafeMutableRawPointer?) {
  guard let context else { return }
  Unmanaged<AnyObject>.fromOpaque(context).release()
}
