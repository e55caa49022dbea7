/// A state (or action payload) value: what a feature's state is made of. Owned by Swift and
/// copy-on-write all the way down, so copying one (a snapshot) is O(1).
///
/// - Integers and floats stay apart: `.integer(1)` is not `.float(1.0)`, as in Lua 5.4.
/// - Strings are Swift text. Lua strings are bytes; state is text (names, queries, ids, JSON), so
///   reading a Lua string that is not valid UTF-8 is an error naming its path rather than a
///   silent replacement. Valid UTF-8 round-trips byte for byte.
/// - `.null` is Lua's nil: a record never stores it (setting a field to `.null` removes it).
public enum Value: Sendable {
  /// Lua's nil: no value.
  case null
  /// A Lua boolean.
  case boolean(Bool)
  /// A Lua integer (never a float: `1` is not `1.0`).
  case integer(Int64)
  /// A Lua float.
  case float(Double)
  /// A Lua string, as text (valid UTF-8).
  case string(String)
  /// A Lua sequence `1…n` (0-based from Swift).
  case array([Value])
  /// String keys, kept sorted (see `ValueRecord`).
  case record(ValueRecord)
  /// Records unique by their `id` field, in order, found by id in O(1).
  case identified(IdentifiedValues)
}

extension Value {
  /// Whether it is `.null`.
  public var isNull: Bool { if case .null = self { return true } else { return false } }

  /// The kind, as messages name it.
  public var kindName: String {
    switch self {
    case .null: return "nil"
    case .boolean: return "boolean"
    case .integer: return "integer"
    case .float: return "float"
    case .string: return "string"
    case .array: return "array"
    case .record: return "record"
    case .identified: return "identified collection"
    }
  }

  /// Arrays, records and identified collections (what a Lua view is made for).
  public var isContainer: Bool {
    switch self {
    case .array, .record, .identified: return true
    default: return false
    }
  }

  /// The boolean, if it is one.
  public var boolValue: Bool? { if case .boolean(let value) = self { return value } else { return nil } }
  /// The integer, if it is one (a float is not).
  public var integerValue: Int64? { if case .integer(let value) = self { return value } else { return nil } }
  /// The float, if it is one (an integer is not).
  public var floatValue: Double? { if case .float(let value) = self { return value } else { return nil } }
  /// The string, if it is one.
  public var stringValue: String? { if case .string(let value) = self { return value } else { return nil } }
  /// The elements, if it is an array.
  public var arrayValue: [Value]? { if case .array(let value) = self { return value } else { return nil } }
  /// The fields, if it is a record.
  public var recordValue: ValueRecord? { if case .record(let value) = self { return value } else { return nil } }
  /// The collection, if it is an identified one.
  public var identifiedValue: IdentifiedValues? {
    if case .identified(let value) = self { return value } else { return nil }
  }

  /// Elements of an array or identified collection, fields of a record; 0 for scalars.
  public var count: Int {
    switch self {
    case .array(let elements): return elements.count
    case .record(let record): return record.count
    case .identified(let collection): return collection.count
    default: return 0
    }
  }

  /// An empty container of the same kind (used for Lua's `{}`, which has no kind of its own).
  var emptyOfSameKind: Value? {
    switch self {
    case .array: return .array([])
    case .record: return .record(ValueRecord())
    case .identified: return .identified(IdentifiedValues())
    default: return nil
    }
  }
}

extension Value: Hashable {
  /// Exact equality: kinds never mix (`1 != 1.0`), floats compare by bits (`-0.0 != 0.0`, and a NaN
  /// equals itself), so equality means "round-trips to the same Lua value".
  public static func == (lhs: Value, rhs: Value) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.boolean(let a), .boolean(let b)): return a == b
    case (.integer(let a), .integer(let b)): return a == b
    case (.float(let a), .float(let b)): return a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.record(let a), .record(let b)): return a == b
    case (.identified(let a), .identified(let b)): return a == b
    default: return false
    }
  }

  /// Hashes as equality compares (kinds apart, floats by bits).
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .boolean(let value): hasher.combine(1); hasher.combine(value)
    case .integer(let value): hasher.combine(2); hasher.combine(value)
    case .float(let value): hasher.combine(3); hasher.combine(value.isNaN ? Double.nan.bitPattern : value.bitPattern)
    case .string(let value): hasher.combine(4); hasher.combine(value)
    case .array(let value): hasher.combine(5); hasher.combine(value)
    case .record(let value): hasher.combine(6); hasher.combine(value)
    case .identified(let value): hasher.combine(7); hasher.combine(value)
    }
  }
}
