@testable import Relua

/// A few payloads of each declared payload type, to send where an exploration cannot try them all:
/// the usual suspects of a view (zero, a negative, the largest integer; the empty string, one
/// letter, a format directive next to a non-ASCII letter; both booleans; empty and short lists).
enum RepresentativePayloads {
  static func of(_ type: PayloadType) -> [Value] {
    switch type {
    case .none: return [.null]
    case .integer: return [1, 0, -1, .max].map(Value.integer)
    case .float: return [0.5, 0, -1e300].map(Value.float)
    case .number: return [.integer(1), .float(0.5)]
    case .string: return ["", "a", "%s é"].map(Value.string)
    case .boolean: return [.boolean(true), .boolean(false)]
    case .table: return [.record(ValueRecord())]
    case .any: return [.null, .integer(1), .string("a")]
    case .array(let element):
      let elements = of(element).filter { !$0.isNull }
      return [.array([]), .array(Array(elements.prefix(1))), .array(Array(elements.prefix(2)))]
    case .optional(let wrapped): return [.null] + of(wrapped)
    }
  }

  /// For `binding.FIELD` (declared `any`): values of the kind the field holds now, so the state
  /// keeps its shape (a string field gets strings).
  static func binding(current: Value) -> [Value] {
    switch current {
    case .boolean: return of(.boolean)
    case .string: return of(.string)
    case .integer: return of(.integer)
    case .float: return of(.float)
    default: return [current]
    }
  }
}
