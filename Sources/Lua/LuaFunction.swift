import CLua

/// A Lua function (written in Lua, or a Swift function made callable from Lua).
public final class LuaFunction: LuaRef {
  /// Calls it (protected); returns all results.
  @discardableResult
  public func call(_ arguments: LuaValue...) throws -> [LuaValue] {
    try state().call(self, arguments: arguments)
  }

  /// Calls it (protected) with an array of arguments; returns all results.
  @discardableResult
  public func call(arguments: [LuaValue]) throws -> [LuaValue] {
    try state().call(self, arguments: arguments)
  }

  /// `function(a, b)`: calls it (protected); returns all results.
  @discardableResult
  public func callAsFunction(_ arguments: LuaValue...) throws -> [LuaValue] {
    try state().call(self, arguments: arguments)
  }

  /// The parameters it declares: their number, and whether it also takes `...`. A C or Swift
  /// function declares none and takes any number (`count` 0, `isVararg` true).
  public func parameters() throws -> (count: Int, isVararg: Bool) {
    try withPushed { _, L, index in
      var debug = lua_Debug()
      lua_pushvalue(L, index)
      lua_getinfo(L, ">u", &debug)  // pops the copy
      return (Int(debug.nparams), debug.isvararg != 0)
    }
  }
}

/// A full userdata (for registered Swift types, see `LuaState.register(type:name:methods:)`).
public final class LuaUserdata: LuaRef {
  /// The Swift object inside, if this userdata is of the registered type `T`.
  public func object<T: AnyObject>(as type: T.Type = T.self) throws -> T? {
    try withPushed { state, L, index in
      guard let userdataType = state.userdataType(for: T.self) else { return nil }
      return userdataType.objectIfPresent(at: index, in: L)
    }
  }

  /// The metatable, read raw (a registered type's `__metatable` hides it from Lua's
  /// `getmetatable`); nil if none. For tools that list a value's methods (the REPL's completion).
  package var metatable: LuaTable? {
    get throws {
      try withPushed { state, L, userdata in
        guard lua_getmetatable(L, userdata) != 0 else { return nil }
        return LuaTable(handle: state.handle, at: -1, in: L)
      }
    }
  }
}
