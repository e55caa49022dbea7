import CLua

/// A Lua value. Integers and floats stay apart (`3` is `.integer`, `3.0` is `.number`); strings
/// are bytes; tables, functions, userdata and threads are registry references to live Lua values.
public enum LuaValue {
  /// `nil`.
  case `nil`
  /// `true` or `false`.
  case boolean(Bool)
  /// An integer (Lua 5.4's 64-bit integer subtype).
  case integer(Int64)
  /// A float.
  case number(Double)
  /// A string: bytes, not necessarily UTF-8.
  case string(LuaString)
  /// A table, by reference.
  case table(LuaTable)
  /// A function (Lua, C or Swift), by reference.
  case function(LuaFunction)
  /// A full userdata (a registered Swift object, or a C module's), by reference.
  case userdata(LuaUserdata)
  /// A light userdata: a bare pointer.
  case lightUserdata(UnsafeMutableRawPointer?)
  /// A coroutine, by reference.
  case thread(LuaThread)

  /// The value's Lua type (integers and floats are both `.number`).
  public var type: LuaType {
    switch self {
    case .nil: return .nil
    case .boolean: return .boolean
    case .integer, .number: return .number
    case .string: return .string
    case .table: return .table
    case .function: return .function
    case .userdata: return .userdata
    case .lightUserdata: return .lightUserdata
    case .thread: return .thread
    }
  }

  /// Whether it is `nil`.
  public var isNil: Bool { if case .nil = self { return true } else { return false } }
  /// Lua truthiness: everything but nil and false.
  public var isTruthy: Bool {
    switch self {
    case .nil, .boolean(false): return false
    default: return true
    }
  }
  /// The integer, or a float with an exact integer value; nil otherwise.
  public var integerValue: Int64? { try? Int64(lua: self) }
  /// The number as a `Double` (integers convert); nil for other values.
  public var doubleValue: Double? { try? Double(lua: self) }
  /// The boolean; nil for other values.
  public var boolValue: Bool? { if case .boolean(let value) = self { return value } else { return nil } }
  /// The string when it is valid UTF-8.
  public var stringValue: String? { if case .string(let value) = self { return value.string } else { return nil } }
  /// The table; nil for other values.
  public var tableValue: LuaTable? { if case .table(let value) = self { return value } else { return nil } }
  /// The function; nil for other values.
  public var functionValue: LuaFunction? { if case .function(let value) = self { return value } else { return nil } }
  /// The coroutine; nil for other values.
  public var threadValue: LuaThread? { if case .thread(let value) = self { return value } else { return nil } }
  /// The full userdata; nil for other values.
  public var userdataValue: LuaUserdata? { if case .userdata(let value) = self { return value } else { return nil } }

  /// Converts to a Swift type, exactly (`3.5` to `Int` throws `LuaError.conversion`).
  public func `as`<T: LuaConvertible>(_ type: T.Type = T.self) throws -> T { try T(lua: self) }

  /// A text value (for String variables; literals convert directly).
  public static func text(_ string: String) -> LuaValue { .string(LuaString(string)) }
}

/// The kinds of Lua values.
public enum LuaType: Int32, Sendable, CustomStringConvertible {
  /// Lua's type tags (`LUA_TNONE` … `LUA_TTHREAD`); `.none` is an absent stack slot.
  case none = -1, `nil` = 0, boolean, lightUserdata, number, string, table, function, userdata, thread

  /// The name Lua's `type()` gives (`"no value"` for `.none`).
  public var description: String {
    switch self {
    case .none: return "no value"
    case .nil: return "nil"
    case .boolean: return "boolean"
    case .lightUserdata: return "light userdata"
    case .number: return "number"
    case .string: return "string"
    case .table: return "table"
    case .function: return "function"
    case .userdata: return "userdata"
    case .thread: return "thread"
    }
  }
}

extension LuaValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral
{
  /// `nil`.
  public init(nilLiteral: ()) { self = .nil }
  /// A boolean.
  public init(booleanLiteral value: Bool) { self = .boolean(value) }
  /// An integer.
  public init(integerLiteral value: Int64) { self = .integer(value) }
  /// A float.
  public init(floatLiteral value: Double) { self = .number(value) }
  /// A string of the literal's UTF-8 bytes.
  public init(stringLiteral value: String) { self = .string(LuaString(value)) }
}

extension LuaValue: Equatable {
  /// Primitive values compare by value (an integer never equals a float here: `.integer(3) !=
  /// .number(3.0)`, which keeps the kinds apart); references compare by identity of the Lua value.
  public static func == (lhs: LuaValue, rhs: LuaValue) -> Bool {
    switch (lhs, rhs) {
    case (.nil, .nil): return true
    case (.boolean(let a), .boolean(let b)): return a == b
    case (.integer(let a), .integer(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.lightUserdata(let a), .lightUserdata(let b)): return a == b
    case (.table(let a), .table(let b)): return a.isSameValue(as: b)
    case (.function(let a), .function(let b)): return a.isSameValue(as: b)
    case (.userdata(let a), .userdata(let b)): return a.isSameValue(as: b)
    case (.thread(let a), .thread(let b)): return a.isSameValue(as: b)
    default: return false
    }
  }
}

extension LuaValue: CustomStringConvertible {
  /// The value as text: plain values as Swift prints them, references as their kind and address
  /// (`table: 0x…`).
  public var description: String {
    switch self {
    case .nil: return "nil"
    case .boolean(let value): return String(value)
    case .integer(let value): return String(value)
    case .number(let value): return String(value)
    case .string(let value): return value.description
    case .table(let value): return "table: \(value.identityDescription)"
    case .function(let value): return "function: \(value.identityDescription)"
    case .userdata(let value): return "userdata: \(value.identityDescription)"
    case .lightUserdata(let value): return "light userdata: \(String(describing: value))"
    case .thread(let value): return "thread: \(value.identityDescription)"
    }
  }
}
