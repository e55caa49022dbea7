import CLua
import CLuaShim

/// A Lua table. `get`/`set`/subscripts honour metamethods and run protected; the `raw` variants
/// do not call metamethods.
public final class LuaTable: LuaRef {
  /// `table[key]`, metamethods included.
  public subscript(key: LuaValue) -> LuaValue { get throws { try get(key) } }
  /// `table[key]` for a string key, metamethods included.
  public subscript(key: String) -> LuaValue { get throws { try get(LuaValue.text(key)) } }
  /// `table[index]` for an integer key, metamethods included.
  public subscript(index: Int) -> LuaValue { get throws { try get(LuaValue.integer(Int64(index))) } }

  /// `table[key]`, metamethods included (run protected).
  public func get(_ key: LuaValue) throws -> LuaValue {
    try withPushed { state, L, table in
      try state.push(key, onto: L)
      let status = relua_pgettable(L, table)
      guard status == LUA_OK else { throw state.failure(status: status, on: L, traceback: nil) }
      return state.value(at: -1, in: L)
    }
  }

  /// `table[key]` for a pushable Swift key, metamethods included.
  public func get(_ key: some LuaPushable) throws -> LuaValue {
    try withPushed { state, L, table in
      try key.push(onto: LuaStack(L, state))
      let status = relua_pgettable(L, table)
      guard status == LUA_OK else { throw state.failure(status: status, on: L, traceback: nil) }
      return state.value(at: -1, in: L)
    }
  }

  /// `table[key] = value`, metamethods included.
  public func set(_ key: LuaValue, _ value: LuaValue) throws {
    try withPushed { state, L, table in
      try state.push(key, onto: L)
      try state.push(value, onto: L)
      let status = relua_psettable(L, table)
      guard status == LUA_OK else { throw state.failure(status: status, on: L, traceback: nil) }
    }
  }

  /// `table[key] = value` for pushable Swift values, metamethods included.
  public func set(_ key: some LuaPushable, _ value: some LuaPushable) throws {
    try withPushed { state, L, table in
      let stack = LuaStack(L, state)
      try key.push(onto: stack)
      try value.push(onto: stack)
      let status = relua_psettable(L, table)
      guard status == LUA_OK else { throw state.failure(status: status, on: L, traceback: nil) }
    }
  }

  /// `rawget(table, key)`: no metamethods.
  public func rawGet(_ key: LuaValue) throws -> LuaValue {
    try withPushed { state, L, table in
      try state.push(key, onto: L)
      lua_rawget(L, table)
      return state.value(at: -1, in: L)
    }
  }

  /// `rawget(table, index)`: no metamethods.
  public func rawGet(_ index: Int) throws -> LuaValue {
    try withPushed { state, L, table in
      lua_rawgeti(L, table, lua_Integer(index))
      return state.value(at: -1, in: L)
    }
  }

  /// Raw assignment; a nil or NaN key throws `LuaError.conversion` (Lua would raise).
  public func rawSet(_ key: LuaValue, _ value: LuaValue) throws {
    switch key {
    case .nil: throw LuaError.conversion("table index is nil")
    case .number(let number) where number.isNaN: throw LuaError.conversion("table index is NaN")
    default: break
    }
    try withPushed { state, L, table in
      try state.push(key, onto: L)
      try state.push(value, onto: L)
      lua_rawset(L, table)
    }
  }

  /// The border of the array part, without `__len` (`rawlen`).
  public var rawLength: Int {
    get throws { try withPushed { _, L, table in Int(lua_rawlen(L, table)) } }
  }

  /// `#table`, `__len` included.
  public func length() throws -> Int {
    try withPushed { state, L, table in
      let status = relua_plen(L, table)
      guard status == LUA_OK else { throw state.failure(status: status, on: L, traceback: nil) }
      var isNumber: Int32 = 0
      let length = lua_tointegerx(L, -1, &isNumber)
      guard isNumber != 0 else { throw LuaError.conversion("object length is not an integer") }
      return Int(length)
    }
  }

  /// Appends at `rawLength + 1`.
  public func append(_ value: LuaValue) throws {
    try withPushed { state, L, table in
      let next = lua_rawlen(L, table) + 1
      try state.push(value, onto: L)
      lua_rawseti(L, table, lua_Integer(next))
    }
  }

  /// Elements 1...rawLength.
  public func array() throws -> [LuaValue] {
    try withPushed { state, L, table in
      let count = Int(lua_rawlen(L, table))
      var result: [LuaValue] = []
      result.reserveCapacity(count)
      for index in 0..<count {
        lua_rawgeti(L, table, lua_Integer(index + 1))
        result.append(state.value(at: -1, in: L))
        lua_settop(L, -2)
      }
      return result
    }
  }

  /// All key/value pairs (raw, in `next` order).
  public func pairs() throws -> [(key: LuaValue, value: LuaValue)] {
    try withPushed { state, L, table in
      var result: [(key: LuaValue, value: LuaValue)] = []
      lua_pushnil(L)
      // lua_next only raises for a key missing from the table; we pass back its own keys.
      while lua_next(L, table) != 0 {
        result.append((state.value(at: -2, in: L), state.value(at: -1, in: L)))
        lua_settop(L, -2)
      }
      return result
    }
  }

  /// The metatable, read raw (ignores a `__metatable` field); nil if none.
  public var metatable: LuaTable? {
    get throws {
      try withPushed { state, L, table in
        guard lua_getmetatable(L, table) != 0 else { return nil }
        return LuaTable(handle: state.handle, at: -1, in: L)
      }
    }
  }

  /// Sets the metatable (nil removes it); raw, so a `__metatable` field does not stop it.
  public func setMetatable(_ metatable: LuaTable?) throws {
    try withPushed { state, L, table in
      if let metatable { try metatable.push(onto: L, from: state.handle) } else { lua_pushnil(L) }
      lua_setmetatable(L, table)
    }
  }
}
