import CLua
import CLuaShim

/// The arguments and results of a Swift function called from Lua: a cheap view of the Lua stack
/// of the calling thread. Valid only during that call; do not keep it.
///
/// Argument positions are 1-based, as in Lua. Typed accessors throw `LuaError.argument`, which Lua
/// reports as `bad argument #2 to 'foo' (number expected, got string)`.
public struct LuaStack {
  /// The raw `lua_State*`. Unsafe: anything that can raise a Lua error must not be called on it
  /// from Swift (see CLuaShim.h).
  @usableFromInline package let unsafeState: OpaquePointer
  unowned(unsafe) let state: LuaState

  @inline(__always)
  init(_ L: OpaquePointer, _ state: LuaState) {
    self.unsafeState = L
    self.state = state
  }

  var L: OpaquePointer { unsafeState }

  /// Number of values on the stack (the arguments, until results are pushed).
  public var count: Int { Int(lua_gettop(L)) }

  /// The hook mask (`LUA_MASKCOUNT`, `LUA_MASKLINE`…) of the thread that called: which hooks it has.
  package var hookMask: Int32 { lua_gethookmask(L) }

  /// The type of the value at `position` (`.none` past the top).
  public func type(at position: Int) -> LuaType { LuaType(rawValue: lua_type(L, Int32(position))) ?? .none }

  /// Whether the value at `position` is nil or absent.
  public func isNil(at position: Int) -> Bool { lua_type(L, Int32(position)) <= 0 }

  /// The type name Lua shows in messages (`__name` of userdata types, e.g. "Store").
  public func typeName(at position: Int) -> String {
    let index = Int32(position)
    if lua_type(L, index) == LUA_TUSERDATA, lua_checkstack(L, 2) != 0, lua_getmetatable(L, index) != 0 {
      defer { lua_settop(L, -2) }
      lua_pushstring(L, "__name")
      lua_rawget(L, -2)
      defer { lua_settop(L, -2) }
      if let name = relua_tolstring(L, -1, nil) { return String(cString: name) }
    }
    return LuaType(rawValue: lua_type(L, index))?.description ?? "no value"
  }

  /// The `bad argument` error for a value at `position` that is not the `expected` type.
  public func typeError(_ expected: String, at position: Int) -> LuaError {
    .argument(position: position, message: "\(expected) expected, got \(typeName(at: position))")
  }

  // MARK: Reading arguments

  /// An integer argument (Lua's rules: floats with an exact integer value and numeric strings pass).
  public func int(at position: Int) throws(LuaError) -> Int {
    var isNumber: Int32 = 0
    let value = lua_tointegerx(L, Int32(position), &isNumber)
    if isNumber != 0 { return Int(value) }
    if lua_type(L, Int32(position)) == LUA_TNUMBER {
      throw .argument(position: position, message: "number has no integer representation")
    }
    throw typeError("number", at: position)
  }

  /// An integer argument, or `defaultValue` when it is nil or absent.
  public func int(at position: Int, default defaultValue: Int) throws(LuaError) -> Int {
    isNil(at: position) ? defaultValue : try int(at: position)
  }

  /// A number argument (integers convert; numeric strings pass, as in Lua).
  public func double(at position: Int) throws(LuaError) -> Double {
    var isNumber: Int32 = 0
    let value = lua_tonumberx(L, Int32(position), &isNumber)
    if isNumber != 0 { return value }
    throw typeError("number", at: position)
  }

  /// A boolean argument (strict: only `true`/`false`).
  public func bool(at position: Int) throws(LuaError) -> Bool {
    guard lua_type(L, Int32(position)) == LUA_TBOOLEAN else { throw typeError("boolean", at: position) }
    return lua_toboolean(L, Int32(position)) != 0
  }

  /// Lua truthiness of the argument (nil and false are false).
  public func isTruthy(at position: Int) -> Bool { lua_toboolean(L, Int32(position)) != 0 }

  /// A string argument as UTF-8 text (invalid sequences replaced). Numbers are not converted.
  public func string(at position: Int) throws(LuaError) -> String {
    var length = 0
    guard let pointer = relua_tolstring(L, Int32(position), &length) else { throw typeError("string", at: position) }
    return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
  }

  /// A string argument, or `defaultValue` when it is nil or absent.
  public func string(at position: Int, default defaultValue: String) throws(LuaError) -> String {
    isNil(at: position) ? defaultValue : try string(at: position)
  }

  /// Calls `body` with the bytes of a string argument, without copying.
  public func withBytes<R>(at position: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
    var length = 0
    guard let pointer = relua_tolstring(L, Int32(position), &length) else { throw typeError("string", at: position) }
    return try body(UnsafeRawBufferPointer(start: pointer, count: length))
  }

  /// A string argument as its bytes, exactly.
  public func luaString(at position: Int) throws(LuaError) -> LuaString {
    var length = 0
    guard let pointer = relua_tolstring(L, Int32(position), &length) else { throw typeError("string", at: position) }
    return LuaString(bytes: Array(UnsafeRawBufferPointer(start: pointer, count: length)))
  }

  /// A table argument, as a reference that may outlive the call.
  public func table(at position: Int) throws(LuaError) -> LuaTable {
    guard lua_type(L, Int32(position)) == LUA_TTABLE else { throw typeError("table", at: position) }
    return LuaTable(handle: state.handle, at: Int32(position), in: L)
  }

  /// A function argument, as a reference that may outlive the call.
  public func function(at position: Int) throws(LuaError) -> LuaFunction {
    guard lua_type(L, Int32(position)) == LUA_TFUNCTION else { throw typeError("function", at: position) }
    return LuaFunction(handle: state.handle, at: Int32(position), in: L)
  }

  /// Any value (tables, functions... become references).
  public func value(at position: Int) -> LuaValue { state.value(at: Int32(position), in: L) }

  /// All arguments as values.
  public var values: [LuaValue] { (0..<count).map { value(at: $0 + 1) } }

  /// The Swift object of a registered userdata type at `position`.
  public func object<T: AnyObject>(at position: Int, as type: T.Type = T.self) throws(LuaError) -> T {
    guard let userdataType = state.userdataType(for: T.self) else {
      throw .conversion("\(T.self) is not registered as a Lua userdata type")
    }
    return try userdataType.object(in: self, at: position)
  }

  // MARK: Pushing results

  /// Makes room for `count` more values (a Swift function has 20 slots to start with).
  public func reserve(_ count: Int) throws(LuaError) {
    guard lua_checkstack(L, Int32(count)) != 0 else { throw .memory(message: "Lua stack overflow") }
  }

  /// Pushes `nil`.
  public func pushNil() { lua_pushnil(L) }
  /// Pushes a boolean.
  public func push(_ value: Bool) { lua_pushboolean(L, value ? 1 : 0) }
  /// Pushes an integer.
  public func push(_ value: Int) { lua_pushinteger(L, lua_Integer(value)) }
  /// Pushes an integer.
  public func push(_ value: Int64) { lua_pushinteger(L, value) }
  /// Pushes a float.
  public func push(_ value: Double) { lua_pushnumber(L, value) }
  /// Pushes a string of the text's UTF-8 bytes.
  public func push(_ value: String) {
    var value = value
    value.withUTF8 { bytes in _ = lua_pushlstring(L, bytes.baseAddress, bytes.count) }
  }
  /// Pushes a string of these bytes (copied by Lua).
  public func push(bytes: UnsafeRawBufferPointer) {
    lua_pushlstring(L, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
  }
  /// Pushes any Lua value (references push what they refer to).
  public func push(_ value: LuaValue) throws(LuaError) { try state.push(value, onto: L) }
  /// Pushes any pushable Swift value (`[1, 2]`, `["a": 1]`, `"text"`…).
  public func push(_ value: some LuaPushable) throws { try value.push(onto: self) }
  /// Pushes a Swift object as a userdata of its registered type.
  public func push<T: AnyObject>(object: T) throws(LuaError) {
    guard let userdataType = state.userdataType(for: T.self) else {
      throw .conversion("\(T.self) is not registered as a Lua userdata type")
    }
    userdataType.push(object, onto: L)
  }
}

/// What a raw Swift function tells the trampoline: return n values, or yield n values.
public struct LuaReturn: Sendable {
  let code: Int32

  /// What a `LuaCFunction` returns for this.
  public var status: Int32 { code }

  /// Returns the top `count` values of the stack.
  public static func values(_ count: Int) -> LuaReturn { LuaReturn(code: Int32(count)) }
  /// Returns no values.
  public static let none = LuaReturn(code: 0)
  /// Yields the top `count` values from the running coroutine. When resumed, the resume
  /// arguments become this function's results.
  public static func yield(_ count: Int) -> LuaReturn { LuaReturn(code: relua_status_yield(Int32(count))) }
}
