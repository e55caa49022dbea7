import CLua
import CLuaShim

/// A Swift value that can be pushed onto the Lua stack.
public protocol LuaPushable {
  /// Pushes the value onto the stack of the Swift function being called (or being set up).
  func push(onto stack: LuaStack) throws
}

/// A Swift value convertible to and from Lua values. Conversions are exact: `3.5` does not become
/// an `Int`, an integer beyond 2^53 does not silently become a `Double`... (see each type).
public protocol LuaConvertible: LuaPushable {
  /// Converts a Lua value, exactly; throws `LuaError.conversion` for a value of another type or out
  /// of range.
  init(lua value: LuaValue) throws
}

func conversionError(_ value: LuaValue, _ expected: String) -> LuaError {
  .conversion("\(expected) expected, got \(value.type)\(valueSuffix(value))")
}

private func valueSuffix(_ value: LuaValue) -> String {
  switch value {
  case .integer, .number, .boolean: return " (\(value))"
  default: return ""
  }
}

extension LuaValue: LuaConvertible {
  /// Any Lua value converts to itself.
  public init(lua value: LuaValue) { self = value }
  /// Pushes the value (a reference pushes the Lua value it refers to).
  public func push(onto stack: LuaStack) throws { try stack.push(self) }
}

extension Bool: LuaConvertible {
  /// Booleans only (strict: `nil` and numbers throw `LuaError.conversion`).
  public init(lua value: LuaValue) throws {
    guard case .boolean(let bool) = value else { throw conversionError(value, "boolean") }
    self = bool
  }
  /// Pushes a Lua boolean.
  public func push(onto stack: LuaStack) { stack.push(self) }
}

extension Int64: LuaConvertible {
  /// Integers, and floats with an exact integer value (`3.0`); `3.5` or `1e300` throw.
  public init(lua value: LuaValue) throws {
    switch value {
    case .integer(let integer): self = integer
    case .number(let number):
      guard let exact = Int64(exactly: number) else {
        throw LuaError.conversion("number has no integer representation (\(number))")
      }
      self = exact
    default: throw conversionError(value, "integer")
    }
  }
  /// Pushes a Lua integer.
  public func push(onto stack: LuaStack) { stack.push(self) }
}

extension Int: LuaConvertible {
  /// As `Int64`'s conversion, then exactly into `Int`'s range.
  public init(lua value: LuaValue) throws {
    let integer = try Int64(lua: value)
    guard let exact = Int(exactly: integer) else { throw LuaError.conversion("integer \(integer) does not fit in Int") }
    self = exact
  }
  /// Pushes a Lua integer.
  public func push(onto stack: LuaStack) { stack.push(self) }
}

extension Int32: LuaConvertible {
  /// As `Int64`'s conversion, then exactly into `Int32`'s range (a value outside it throws).
  public init(lua value: LuaValue) throws {
    let integer = try Int64(lua: value)
    guard let exact = Int32(exactly: integer) else { throw LuaError.conversion("integer \(integer) does not fit in Int32") }
    self = exact
  }
  /// Pushes a Lua integer.
  public func push(onto stack: LuaStack) { stack.push(Int64(self)) }
}

extension Double: LuaConvertible {
  /// Floats, and integers (converted as Lua converts them).
  public init(lua value: LuaValue) throws {
    switch value {
    case .number(let number): self = number
    case .integer(let integer): self = Double(integer)
    default: throw conversionError(value, "number")
    }
  }
  /// Pushes a Lua float.
  public func push(onto stack: LuaStack) { stack.push(self) }
}

extension String: LuaConvertible {
  /// Strings that are valid UTF-8 (numbers are not converted).
  public init(lua value: LuaValue) throws {
    guard case .string(let string) = value else { throw conversionError(value, "string") }
    guard let text = string.string else { throw LuaError.conversion("string is not valid UTF-8") }
    self = text
  }
  /// Pushes a Lua string of the text's UTF-8 bytes.
  public func push(onto stack: LuaStack) { stack.push(self) }
}

extension LuaString: LuaConvertible {
  /// Strings only, their bytes as they are (numbers are not converted).
  public init(lua value: LuaValue) throws {
    guard case .string(let string) = value else { throw conversionError(value, "string") }
    self = string
  }
  /// Pushes a Lua string of these bytes.
  public func push(onto stack: LuaStack) {
    bytes.withUnsafeBytes { stack.push(bytes: $0) }
  }
}

extension Optional: LuaPushable where Wrapped: LuaPushable {
  /// Pushes the wrapped value, or `nil`.
  public func push(onto stack: LuaStack) throws {
    if let self { try self.push(onto: stack) } else { stack.pushNil() }
  }
}

extension Optional: LuaConvertible where Wrapped: LuaConvertible {
  /// nil for Lua nil, else the wrapped conversion.
  public init(lua value: LuaValue) throws {
    self = value.isNil ? nil : try Wrapped(lua: value)
  }
}

extension Array: LuaPushable where Element: LuaPushable {
  /// A sequence table {1: ..., 2: ...}.
  public func push(onto stack: LuaStack) throws {
    try stack.reserve(2)
    lua_createtable(stack.L, Int32(clamping: count), 0)
    for (offset, element) in enumerated() {
      try element.push(onto: stack)
      lua_rawseti(stack.L, -2, lua_Integer(offset + 1))
    }
  }
}

extension Array: LuaConvertible where Element: LuaConvertible {
  /// Elements 1...#t (raw) of a table.
  public init(lua value: LuaValue) throws {
    guard case .table(let table) = value else { throw conversionError(value, "table") }
    self = try table.array().map(Element.init(lua:))
  }
}

extension Dictionary: LuaPushable where Key == String, Value: LuaPushable {
  /// Pushes a table whose string keys are the dictionary's.
  public func push(onto stack: LuaStack) throws {
    try stack.reserve(3)
    lua_createtable(stack.L, 0, Int32(clamping: count))
    for (key, element) in self {
      stack.push(key)
      try element.push(onto: stack)
      lua_rawset(stack.L, -3)
    }
  }
}

extension Dictionary: LuaConvertible where Key == String, Value: LuaConvertible {
  /// All pairs of a table whose keys are strings (other keys throw).
  public init(lua value: LuaValue) throws {
    guard case .table(let table) = value else { throw conversionError(value, "table") }
    var result: [String: Value] = [:]
    for (key, element) in try table.pairs() {
      result[try String(lua: key)] = try Value(lua: element)
    }
    self = result
  }
}

extension LuaTable: LuaPushable {
  /// Pushes the table this reference holds.
  public func push(onto stack: LuaStack) throws { try push(onto: stack.L, from: stack.state.handle) }
}

extension LuaFunction: LuaPushable {
  /// Pushes the function this reference holds.
  public func push(onto stack: LuaStack) throws { try push(onto: stack.L, from: stack.state.handle) }
}

extension LuaThread: LuaPushable {
  /// Pushes the coroutine this reference holds.
  public func push(onto stack: LuaStack) throws { try push(onto: stack.L, from: stack.state.handle) }
}

extension LuaUserdata: LuaPushable {
  /// Pushes the userdata this reference holds.
  public func push(onto stack: LuaStack) throws { try push(onto: stack.L, from: stack.state.handle) }
}
