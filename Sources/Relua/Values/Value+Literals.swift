extension Value: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  /// `nil` is `.null`.
  public init(nilLiteral: ()) { self = .null }
  /// `true`/`false` are `.boolean`.
  public init(booleanLiteral value: Bool) { self = .boolean(value) }
  /// An integer literal is `.integer`.
  public init(integerLiteral value: Int64) { self = .integer(value) }
  /// A float literal is `.float`.
  public init(floatLiteral value: Double) { self = .float(value) }
  /// A string literal is `.string`.
  public init(stringLiteral value: String) { self = .string(value) }
  /// An array literal is `.array`.
  public init(arrayLiteral elements: Value...) { self = .array(elements) }
  /// A record; `nil` values are left out, as in a Lua table constructor.
  public init(dictionaryLiteral elements: (String, Value)...) { self = .record(ValueRecord(elements)) }

  /// An identified collection; traps on a missing or duplicate id (for literals in tests).
  public static func identified(_ elements: [Value]) -> Value {
    do { return .identified(try IdentifiedValues(elements)) } catch { preconditionFailure("\(error)") }
  }
}
