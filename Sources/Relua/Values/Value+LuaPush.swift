import CLua
import CLuaShim
import Lua

extension Value: LuaPushable {
  /// Pushes the value as plain Lua: nil, booleans, integers, floats, strings and fresh tables
  /// (arrays and identified collections as sequences, records with string keys). An identified
  /// collection's table carries the `IdentifiedMarker` metatable, so it reads back as one.
  public func push(onto stack: LuaStack) throws { try push(onto: stack.unsafeState) }

  /// Pushes onto a raw `lua_State*` (one slot). Only allocating, non-raising calls are used.
  package func push(onto L: OpaquePointer) throws(LuaError) {
    switch self {
    case .null: lua_pushnil(L)
    case .boolean(let value): lua_pushboolean(L, value ? 1 : 0)
    case .integer(let value): lua_pushinteger(L, value)
    case .float(let value): lua_pushnumber(L, value)
    case .string(let value): pushLuaString(value, onto: L)
    case .array(let elements): try pushSequence(elements, onto: L)
    case .identified(let collection):
      try pushSequence(collection.elements, onto: L)
      IdentifiedMarker.mark(tableAtTopOf: L)
    case .record(let record):
      guard lua_checkstack(L, 3) != 0 else { throw .memory(message: "Lua stack overflow") }
      lua_createtable(L, 0, Int32(clamping: record.count))
      for field in record.fields {
        pushLuaString(field.key, onto: L)
        try field.value.push(onto: L)
        lua_rawset(L, -3)
      }
    }
  }
}

private func pushSequence(_ elements: [Value], onto L: OpaquePointer) throws(LuaError) {
  guard lua_checkstack(L, 3) != 0 else { throw .memory(message: "Lua stack overflow") }
  lua_createtable(L, Int32(clamping: elements.count), 0)
  var position: lua_Integer = 1
  for element in elements {
    try element.push(onto: L)
    lua_rawseti(L, -2, position)
    position += 1
  }
}

@inline(__always)
func pushLuaString(_ string: String, onto L: OpaquePointer) {
  var string = string
  string.withUTF8 { bytes in _ = lua_pushlstring(L, bytes.baseAddress, bytes.count) }
}
