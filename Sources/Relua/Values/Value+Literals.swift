extension Value: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  public init(nilLiteral: ()) { self = .null }
  public init(booleanLiteral value: Bool) { self = .boolean(value) }
  public init(integerLiteral value: Int64) { self = .integer(value) }
  public init(floatLiteral value: Double) { self = .float(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(arrayLiteral elements: Value...) { self = .array(elements) }
  /// A record; `nil` values are left out, as in a Lua table constructor.
  public init(dictionaryLiteral elements: (String, Value)...) { self = .record(ValueRecord(elements)) }

  /// An identified collection; traps on a missing or duplicate id (for literals in tests).
  public static func identified(_ elements: [Value]) -> Value {
    do { return .identified(try IdentifiedValues(elements)) } catch { preconditionFailure("\(error)") }
  }
}
