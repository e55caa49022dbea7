import CLua
import CLuaShim

/// The raw Lua stack of one thread, for what a host built on this layer truly needs raw: the hot
/// paths (state views' metamethods, reading and pushing values, resolving a sent action) and the
/// few installs no safe API covers (a metatable for light userdata). One method per Lua C API
/// primitive, named for what it does; the host imports `Lua`, never `CLua`/`CLuaShim` (#32).
///
/// A type of its own beside `LuaStack`, not more of it: `LuaStack` is the public, checked view a
/// Swift function gets (typed arguments that throw `LuaError.argument`, a `LuaState` at hand),
/// while this is one pointer and nothing else, unchecked, `package` only, and every primitive
/// inlinable, so a host's hot path compiles to the same C calls it made before.
///
/// The rules of the C API hold: indices must be valid, the stack must have room (`reserve`,
/// `checkStack`), and nothing that can raise a Lua error may be called unprotected except where
/// a comment says the caller has made sure it cannot (see CLuaShim.h). `withStackGuard` scopes a
/// piece of work so that it leaves the stack where it found it.
@usableFromInline
package struct LuaRawStack {
  /// The `lua_State*` (for relua's own C shim, which needs the raw pointer).
  @usableFromInline package let rawState: OpaquePointer

  /// A view of the stack of `rawState` (a thread of a state the Lua layer made).
  @inlinable @inline(__always)
  package init(_ rawState: OpaquePointer) { self.rawState = rawState }

  // MARK: Constants

  /// The pseudo-index of the registry.
  @inlinable package static var registryIndex: Int32 { relua_registryindex() }
  /// What `makeReference` never returns: no reference (`LUA_NOREF`).
  @inlinable package static var noReference: Int32 { LUA_NOREF }
  /// The status of a call that succeeded (`LUA_OK`).
  @inlinable package static var ok: Int32 { LUA_OK }

  // MARK: The stack

  /// The index of the top slot: how many values the stack holds.
  @inlinable @inline(__always)
  package var top: Int32 { lua_gettop(rawState) }

  /// Sets the top to `index` (pops, or pushes nils).
  @inlinable @inline(__always)
  package func setTop(_ index: Int32) { lua_settop(rawState, index) }

  /// Pops `count` values.
  @inlinable @inline(__always)
  package func pop(_ count: Int32 = 1) { lua_settop(rawState, -count - 1) }

  /// `index` as an absolute index (for one that must stay valid while values are pushed).
  @inlinable @inline(__always)
  package func absoluteIndex(_ index: Int32) -> Int32 { lua_absindex(rawState, index) }

  /// Makes room for `count` more values; false when the stack cannot grow that far.
  @inlinable @inline(__always)
  package func checkStack(_ count: Int32) -> Bool { lua_checkstack(rawState, count) != 0 }

  /// Makes room for `count` more values, or throws "Lua stack overflow".
  @inlinable @inline(__always)
  package func reserve(_ count: Int32) throws(LuaError) {
    guard lua_checkstack(rawState, count) != 0 else { throw LuaError.memory(message: "Lua stack overflow") }
  }

  /// Runs `body` and puts the top back where it was on entry (mlua's `StackGuard`). A body that
  /// returns must leave the stack balanced (asserted in debug builds; restored in any case); one
  /// that throws may leave anything, which is popped.
  @inlinable @inline(__always)
  package func withStackGuard<R>(_ body: (LuaRawStack) throws -> R) rethrows -> R {
    let entry = lua_gettop(rawState)
    let result: R
    do {
      result = try body(self)
    } catch {
      lua_settop(rawState, entry)
      throw error
    }
    let exit = lua_gettop(rawState)
    if exit != entry {
      assertionFailure("Lua stack unbalanced: \(exit - entry) values left by a guarded scope")
      lua_settop(rawState, entry)
    }
    return result
  }

  // MARK: Reading slots

  /// The type of the value at `index` (`.none` for an index past the top).
  @inlinable @inline(__always)
  package func type(at index: Int32) -> LuaType { LuaType(rawValue: lua_type(rawState, index)) ?? .none }

  /// The name Lua gives the type of the value at `index` ("nil", "table"…; no `__name`).
  @inlinable
  package func typeName(at index: Int32) -> String { String(cString: lua_typename(rawState, lua_type(rawState, index))) }

  /// Whether the value at `index` is a number with an integer representation as stored.
  @inlinable @inline(__always)
  package func isInteger(at index: Int32) -> Bool { lua_isinteger(rawState, index) != 0 }

  /// Lua's truthiness of the value at `index` (nil and false are false).
  @inlinable @inline(__always)
  package func boolean(at index: Int32) -> Bool { lua_toboolean(rawState, index) != 0 }

  /// The value at `index` as an integer (Lua's conversions), nil when it has none.
  @inlinable @inline(__always)
  package func integer(at index: Int32) -> Int64? {
    var isNumber: Int32 = 0
    let value = lua_tointegerx(rawState, index, &isNumber)
    return isNumber != 0 ? value : nil
  }

  /// The value at `index` as an integer, 0 when it has none (for a slot known to hold one).
  @inlinable @inline(__always)
  package func integerValue(at index: Int32) -> Int64 { lua_tointegerx(rawState, index, nil) }

  /// The value at `index` as a float, 0 when it is no number (for a slot known to hold one).
  @inlinable @inline(__always)
  package func numberValue(at index: Int32) -> Double { lua_tonumberx(rawState, index, nil) }

  /// The bytes of the string at `index`, not copied (valid while the string is on the stack);
  /// nil unless it is a string or a number. A number is converted in place (`lua_tolstring`):
  /// never call it on a key `next` is walking.
  @inlinable @inline(__always)
  package func stringBytes(at index: Int32) -> UnsafeRawBufferPointer? {
    var length = 0
    guard let pointer = lua_tolstring(rawState, index, &length) else { return nil }
    return UnsafeRawBufferPointer(start: pointer, count: length)
  }

  /// The string at `index` as `lua_tolstring` gives it: its C pointer (nil unless a string or a
  /// number) and, in `length`, its length. For callers that compare the pointer itself.
  @inlinable @inline(__always)
  package func cString(at index: Int32, length: inout Int) -> UnsafePointer<CChar>? {
    lua_tolstring(rawState, index, &length)
  }

  /// The address of the object at `index` (a table, a string, a function…), for identity only.
  @inlinable @inline(__always)
  package func pointer(at index: Int32) -> UnsafeRawPointer? { lua_topointer(rawState, index) }

  /// The pointer of the userdata (full or light) at `index`; nil for any other value.
  @inlinable @inline(__always)
  package func userdata(at index: Int32) -> UnsafeMutableRawPointer? { lua_touserdata(rawState, index) }

  /// Whether the values at `a` and `b` are primitively equal (no `__eq`).
  @inlinable @inline(__always)
  package func rawEqual(_ a: Int32, _ b: Int32) -> Bool { lua_rawequal(rawState, a, b) != 0 }

  // MARK: Pushing

  @inlinable @inline(__always)
  package func pushNil() { lua_pushnil(rawState) }

  @inlinable @inline(__always)
  package func push(boolean: Bool) { lua_pushboolean(rawState, boolean ? 1 : 0) }

  @inlinable @inline(__always)
  package func push(integer: Int64) { lua_pushinteger(rawState, integer) }

  @inlinable @inline(__always)
  package func push(number: Double) { lua_pushnumber(rawState, number) }

  /// Pushes `string`'s UTF-8 bytes as a Lua string.
  @inlinable @inline(__always)
  package func push(string: String) {
    var string = string
    string.withUTF8 { bytes in _ = lua_pushlstring(rawState, bytes.baseAddress, bytes.count) }
  }

  /// Pushes a light userdata.
  @inlinable @inline(__always)
  package func push(lightUserdata pointer: UnsafeMutableRawPointer?) { lua_pushlightuserdata(rawState, pointer) }

  /// Pushes a copy of the value at `index`.
  @inlinable @inline(__always)
  package func pushCopy(of index: Int32) { lua_pushvalue(rawState, index) }

  /// Pushes a new full userdata of `size` bytes with `userValues` user values.
  @inlinable
  package func pushNewUserdata(size: Int, userValues: Int32 = 0) { _ = lua_newuserdatauv(rawState, size, userValues) }

  // MARK: Tables

  /// Pushes a new table with room for `arrayCount` elements and `recordCount` fields.
  @inlinable @inline(__always)
  package func createTable(arrayCount: Int32 = 0, recordCount: Int32 = 0) { lua_createtable(rawState, arrayCount, recordCount) }

  /// `t[key] = v`, `t` at `index`, `v` on top (popped). Runs `__newindex`: the table must have none.
  @inlinable
  package func setField(_ key: String, at index: Int32) { lua_setfield(rawState, index, key) }

  /// Pushes `t[k]` without metamethods, `t` at `index`, `k` on top (replaced); returns its type.
  @inlinable @inline(__always) @discardableResult
  package func rawGet(at index: Int32) -> LuaType { LuaType(rawValue: lua_rawget(rawState, index)) ?? .none }

  /// Pushes `t[n]` without metamethods, `t` at `index`; returns its type.
  @inlinable @inline(__always) @discardableResult
  package func rawGet(at index: Int32, _ n: Int64) -> LuaType { LuaType(rawValue: lua_rawgeti(rawState, index, n)) ?? .none }

  /// The raw length of the value at `index` (`#` without metamethods: a table's border).
  @inlinable @inline(__always)
  package func rawLength(at index: Int32) -> Int { Int(lua_rawlen(rawState, index)) }

  /// `t[k] = v` without metamethods, `t` at `index`, `k` and `v` on top (both popped).
  @inlinable @inline(__always)
  package func rawSet(at index: Int32) { lua_rawset(rawState, index) }

  /// `t[n] = v` without metamethods, `t` at `index`, `v` on top (popped).
  @inlinable @inline(__always)
  package func rawSet(at index: Int32, _ n: Int64) { lua_rawseti(rawState, index, n) }

  /// The next entry of the table at `index` after the key on top (popped): pushes key and value
  /// and returns true, or pushes nothing and returns false at the end.
  @inlinable @inline(__always)
  package func next(at index: Int32) -> Bool { lua_next(rawState, index) != 0 }

  // MARK: Metatables

  /// Pushes the metatable of the value at `index` and returns true; false (nothing pushed) when it has none.
  @inlinable @inline(__always)
  package func pushMetatable(of index: Int32) -> Bool { lua_getmetatable(rawState, index) != 0 }

  /// Pops a table (or nil) and makes it the metatable of the value at `index`.
  @inlinable @inline(__always)
  package func setMetatable(at index: Int32) { lua_setmetatable(rawState, index) }

  // MARK: The registry and globals

  /// Pushes the registry value under `reference`.
  @inlinable @inline(__always)
  package func pushRegistryValue(_ reference: Int64) { lua_rawgeti(rawState, relua_registryindex(), reference) }

  /// Pops the value on top into the registry under a new reference, which it returns.
  @inlinable
  package func makeReference() -> Int32 { luaL_ref(rawState, relua_registryindex()) }

  /// Pops the value on top into the registry under `reference` (replacing what was there).
  @inlinable
  package func setRegistryValue(_ reference: Int64) { lua_rawseti(rawState, relua_registryindex(), reference) }

  /// Pushes the registry's field `key`; returns its type.
  @inlinable @discardableResult
  package func getRegistryField(_ key: String) -> LuaType {
    LuaType(rawValue: lua_getfield(rawState, relua_registryindex(), key)) ?? .none
  }

  /// Pops the value on top into the registry's field `key`.
  @inlinable
  package func setRegistryField(_ key: String) { lua_setfield(rawState, relua_registryindex(), key) }

  /// Pushes the global `name`; returns its type. Runs `_G`'s metamethods: it must have none.
  @inlinable @discardableResult
  package func getGlobal(_ name: String) -> LuaType { LuaType(rawValue: lua_getglobal(rawState, name)) ?? .none }

  /// Pops the value on top into the global `name`. Runs `_G`'s metamethods: it must have none.
  @inlinable
  package func setGlobal(_ name: String) { lua_setglobal(rawState, name) }

  // MARK: Calls

  /// `lua_pcall` of the function under `argumentCount` arguments on top, with no message handler:
  /// the status (`LuaRawStack.ok`, or an error status with the error object on top).
  @inlinable @inline(__always)
  package func protectedCall(argumentCount: Int32, resultCount: Int32) -> Int32 {
    lua_pcallk(rawState, argumentCount, resultCount, 0, 0, nil)
  }

  // MARK: Where the script is

  /// `file:line` of the Lua function `level` levels up from the running C function (0 is the
  /// running function itself); nil when there is none or it has no line.
  package func location(ofLevel level: Int32) -> String? {
    var record = lua_Debug()
    guard lua_getstack(rawState, level, &record) != 0, lua_getinfo(rawState, "Sl", &record) != 0, record.currentline > 0 else {
      return nil
    }
    return "\(Self.shortSource(&record)):\(record.currentline)"
  }

  /// `file:line` where the Lua function on top was defined (popped); nil for a C function.
  package func definitionOfFunctionOnTop() -> String? {
    var record = lua_Debug()
    guard lua_getinfo(rawState, ">S", &record) != 0, record.linedefined > 0 else { return nil }
    return "\(Self.shortSource(&record)):\(record.linedefined)"
  }

  /// `chunk:line` of the innermost script code running (see `LuaState.scriptLocation`).
  package var scriptLocation: String? { LuaState.scriptLocation(rawState) }

  /// The chunk name of a debug record (`short_src`), as Lua's messages write it.
  static func shortSource(_ record: inout lua_Debug) -> String {
    withUnsafeBytes(of: &record.short_src) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
  }
}

extension LuaStack {
  /// The raw stack under this view (see `LuaRawStack`).
  @inlinable @inline(__always)
  package var raw: LuaRawStack { LuaRawStack(unsafeState) }
}

extension LuaState {
  /// Calls `body` with the raw stack Swift should use now, guarded: the top is put back where it
  /// was when `body` returns or throws (see `LuaRawStack.withStackGuard`).
  package func withRawStack<R>(_ body: (LuaRawStack) throws -> R) throws -> R {
    try LuaRawStack(currentThread()).withStackGuard(body)
  }

  /// The raw stack Swift should use now, for a hot path (`withRawStack` without the closure or the guard).
  @inlinable @inline(__always)
  package func currentRawStack() throws(LuaError) -> LuaRawStack { LuaRawStack(try currentThread()) }

  /// Switches the collector to generational mode (`collectgarbage("generational")`).
  package func collectGenerationally() throws {
    relua_gc_generational(try currentThread())
  }
}

extension LuaRef {
  /// Pushes the value onto a raw stack the caller reserved a slot on (for hot paths).
  @inlinable @inline(__always)
  package func push(onto stack: LuaRawStack) throws(LuaError) { try push(onto: stack.rawState) }
}
