/// The payload an action declares: `{}` (none), or a type name — `integer`, `float`, `number`,
/// `string`, `boolean`, `table`, `any` — optionally an array of one (`{integer}`) and optionally
/// optional (`string?`).
package indirect enum PayloadType: Hashable, Sendable, CustomStringConvertible {
  case none
  case integer, float, number, string, boolean, table, any
  case array(PayloadType)
  case optional(PayloadType)

  /// Parses a declaration (`"integer"`, `"{integer}"`, `"string?"`).
  package init?(declaration text: String) {
    if text.hasSuffix("?") {
      guard let wrapped = PayloadType(declaration: String(text.dropLast())), wrapped != .none else { return nil }
      self = .optional(wrapped)
      return
    }
    if text.hasPrefix("{") && text.hasSuffix("}") && text.count > 2 {
      guard let element = PayloadType(declaration: String(text.dropFirst().dropLast())), element != .none else { return nil }
      self = .array(element)
      return
    }
    switch text {
    case "integer": self = .integer
    case "float": self = .float
    case "number": self = .number
    case "string": self = .string
    case "boolean": self = .boolean
    case "table": self = .table
    case "any": self = .any
    default: return nil
    }
  }

  package var description: String {
    switch self {
    case .none: return "no payload"
    case .integer: return "integer"
    case .float: return "float"
    case .number: return "number"
    case .string: return "string"
    case .boolean: return "boolean"
    case .table: return "table"
    case .any: return "any"
    case .array(let element): return "{\(element)}"
    case .optional(let wrapped): return "\(wrapped)?"
    }
  }

  /// Whether the action takes no payload.
  @inline(__always)
  var isNone: Bool { if case .none = self { return true } else { return false } }

  /// Nil when `value` fits, else what is wrong (`expected integer, got string "x"`).
  package func mismatch(_ value: Value) -> String? {
    switch (self, value) {
    case (.none, .null), (.any, _), (.optional, .null): return nil
    case (.none, _): return "takes no payload, got \(describeValue(value))"
    case (.integer, .integer), (.float, .float), (.number, .integer), (.number, .float), (.string, .string),
      (.boolean, .boolean), (.table, .array), (.table, .record), (.table, .identified):
      return nil
    case (.table, .null), (.table, _): return "expected a table, got \(describeValue(value))"
    case (.array(let element), .array(let elements)):
      for (offset, item) in elements.enumerated() {
        if let problem = element.mismatch(item) { return "element \(offset + 1): \(problem)" }
      }
      return nil
    case (.array, .record(let record)) where record.count == 0: return nil  // `{}` reads as a record
    case (.optional(let wrapped), _): return wrapped.mismatch(value)
    default: return "expected \(self), got \(describeValue(value))"
    }
  }
}

func describeValue(_ value: Value) -> String {
  switch value {
  case .null: return "nil"
  case .array, .record, .identified: return "a table"
  default: return "\(value.kindName) \(value)"  // elided: a megabyte payload is named, not quoted
  }
}
