/// How `Value.luaLiteral` lays out containers.
public struct LuaLiteralFormat: Sendable {
  /// Multi-line output: a container that does not fit in `width` columns on one line is broken
  /// into one element per line, indented by two spaces. Nil prints everything on one line.
  public var width: Int?
  /// Elements or fields shown per container before `… n more`.
  public var maxElements: Int

  public init(width: Int? = nil, maxElements: Int = Int.max) {
    self.width = width
    self.maxElements = maxElements
  }

  public static let oneLine = LuaLiteralFormat()
  public static let multiLine = LuaLiteralFormat(width: 80)
}

extension Value: CustomStringConvertible {
  /// One line of Lua: `{ count = 1, results = { { id = "a", secret = 5 } } }`.
  public var description: String { luaLiteral() }

  /// The value as a Lua literal. Records print their keys in sorted order (the order they are
  /// stored in), arrays and identified collections as sequences; strings quoted like `%q`.
  public func luaLiteral(_ format: LuaLiteralFormat = .oneLine, indent: Int = 0) -> String {
    luaLiteral(format, indent: indent, used: indent)
  }

  /// `used`: columns already taken on the first line (indentation and a `key = ` before it).
  func luaLiteral(_ format: LuaLiteralFormat, indent: Int, used: Int) -> String {
    switch self {
    case .null: return "nil"
    case .boolean(let value): return value ? "true" : "false"
    // Lua reads `-9223372036854775808` as a float (a minus applied to a literal out of range),
    // so the smallest integer is written by name (found by the fuzzer).
    case .integer(let value): return value == .min ? "math.mininteger" : String(value)
    case .float(let value): return luaFloatLiteral(value)
    case .string(let value): return quoteLuaString(value)
    case .array, .record, .identified:
      let entries = containerEntries(format)
      if entries.isEmpty { return "{}" }
      let oneLine = "{ " + entries.map { $0(.oneLine, 0) }.joined(separator: ", ") + " }"
      guard let width = format.width, used + oneLine.count > width else { return oneLine }
      let inner = String(repeating: " ", count: indent + 2)
      let lines = entries.map { inner + $0(format, indent + 2) + "," }
      return "{\n" + lines.joined(separator: "\n") + "\n" + String(repeating: " ", count: indent) + "}"
    }
  }

  /// Each entry prints itself at an indentation (`key = value` or `value`, or `… n more`).
  private func containerEntries(_ format: LuaLiteralFormat) -> [(LuaLiteralFormat, Int) -> String] {
    var entries: [(LuaLiteralFormat, Int) -> String] = []
    switch self {
    case .record(let record):
      for field in record.fields.prefix(format.maxElements) {
        let key = luaKeyLiteral(field.key)
        entries.append { format, indent in
          key + " = " + field.value.luaLiteral(format, indent: indent, used: indent + key.count + 3)
        }
      }
    case .array(let elements):
      for element in elements.prefix(format.maxElements) { entries.append { element.luaLiteral($0, indent: $1) } }
    case .identified(let collection):
      for element in collection.elements.prefix(format.maxElements) {
        entries.append { element.luaLiteral($0, indent: $1) }
      }
    default: break
    }
    if count > format.maxElements {
      let more = "… \(count - format.maxElements) more"
      entries.append { _, _ in more }
    }
    return entries
  }
}

/// `key` as it goes before ` = ` in a table constructor: bare when it is an identifier.
func luaKeyLiteral(_ key: String) -> String { isLuaIdentifier(key) ? key : "[" + quoteLuaString(key) + "]" }

/// A float that Lua reads back as the same float (`1.0`, not `1`; shortest exact digits).
func luaFloatLiteral(_ value: Double) -> String {
  if value.isNaN { return "(0/0)" }
  if value.isInfinite { return value < 0 ? "-math.huge" : "math.huge" }
  return value.description  // Swift prints the shortest digits that read back exactly, with ".0" or an exponent
}

/// A Lua string literal in the manner of `string.format("%q")`: double quotes, `\"`, `\\`,
/// control characters as `\n`, `\r`, `\t` or `\ddd`; other text (UTF-8) as is.
public func quoteLuaString(_ string: String) -> String {
  QuotedString.quote(string) { byte, quoted in
    guard byte < 32 || byte == 127 else { return false }
    quoted.append(UInt8(ascii: "\\"))
    quoted.append(48 + byte / 100)
    quoted.append(48 + byte / 10 % 10)
    quoted.append(48 + byte % 10)
    return true
  }
}
