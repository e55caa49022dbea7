import Lua
import Relua
import XCTest

/// A Lua state with state views, and helpers to run reducer-like Lua functions over a `Value`.
final class ViewHarness {
  let lua: LuaState
  let views: StateViews

  init() throws {
    lua = try LuaState()
    views = try StateViews(lua: lua)
  }

  /// The Lua stack height now (to check operations leave it balanced).
  var stackTop: Int32 { (try? lua.withRawState { LuaRawStack($0).top }) ?? -1 }

  /// Compiles `return function(s, ...) <body> end` and calls it with a view of `state` (at `path`).
  @discardableResult
  func reduce(_ state: inout Value, at path: ValuePath = [], _ body: String, arguments: [LuaValue] = []) throws -> [LuaValue] {
    let function = try lua.execute("return function(s, ...) \(body) end", name: "=reducer")[0].functionValue!
    return try views.withViews(of: &state) { session in
      try function.call(arguments: [try session.view(at: path)] + arguments)
    }
  }

  /// Evaluates a Lua expression to a `Value`.
  func value(_ expression: String, hint: Value? = nil) throws -> Value {
    let result = try lua.execute("return \(expression)", name: "=expression")
    return try views.value(from: result.first ?? .nil, hint: hint)
  }

  /// Pushes `value` to Lua and evaluates `check(v)` there.
  func lua(_ value: Value, _ check: String) throws -> LuaValue {
    let function = try lua.execute("return function(v) \(check) end", name: "=check")[0].functionValue!
    return try function.call(try lua.value(value)).first ?? .nil
  }
}

/// The message of a Lua error (no traceback).
func luaMessage(_ error: any Error) -> String {
  if let error = error as? LuaError { return error.message }
  return String(describing: error)
}
