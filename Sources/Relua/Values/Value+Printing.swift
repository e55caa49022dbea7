import Composable

/// How `Value.luaLiteral` lays out containers, and how much of them it shows.
public struct LuaLiteralFormat: Sendable {
  /// Multi-line output: a container that does not fit in `width` columns on one line is broken
  /// into one element per line, indented by two spaces. Nil prints everything on one line.
  public var width: Int?
  /// How much is shown (see `Elision`); `.none`, exact Lua that loads back, by default.
  public var elision: Elision

  /// Lines up to `width` characters (nil: one line), with `elision`.
  public init(width: Int? = nil, elision: Elision = .none) {
    self.width = width
    self.elision = elision
  }

  /// Exact, for code (recorded tests, places): everything, loadable as Lua.
  public static let oneLine = LuaLiteralFormat()
  /// Multi-line, 80 characters wide.
  public static let multiLine = LuaLiteralFormat(width: 80)

  /// The same layout for people: cut by `elision`, saying what it left out.
  public func elided(_ elision: Elision = .standard) -> LuaLiteralFormat {
    LuaLiteralFormat(width: width, elision: elision)
  }
}

extension Value: CustomStringConvertible {
  /// One line of Lua for people, elided (`Elision.standard`):
  /// `{ count = 1, results = { { id = "a", secret = 5 } } }`. `luaLiteral()` is the exact one.
  public var description: String { luaLiteral(.oneLine.elided()) }

  /// The value as a Lua literal. Records print their keys in sorted order (the order they are
  /// stored in), arrays and identified collections as sequences; strings quoted like `%q`.
  /// With an elision, long ones are cut (see `LuaLiteralPrinter`).
  public func luaLiteral(_ format: LuaLiteralFormat = .oneLine, indent: Int = 0) -> String {
    var printer = LuaLiteralPrinter(format)
    return printer.literal(self, indent: indent, used: indent)
  }
}

/// `key` as it goes before ` = ` in a table constructor: bare when it is an identifier.
func luaKeyLiteral(_ key: String, elision: Elision = .none) -> String {
  isLuaIdentifier(key) && elision.cut(string: key) == nil ? key : "[" + quoteLuaString(key, elision: elision) + "]"
}

/// A float that Lua reads back as the same float (`1.0`, not `1`; shortest exact digits).
func luaFloatLiteral(_ value: Double) -> String {
  if value.isNaN { return "(0/0)" }
  if value.isInfinite { return value < 0 ? "-math.huge" : "math.huge" }
  return value.description  // Swift prints the shortest digits that read back exactly, with ".0" or an exponent
}

/// A Lua string literal in the manner of `string.format("%q")`: double quotes, `\"`, `\\`,
/// control characters as `\n`, `\r`, `\t` or `\ddd`; other text (UTF-8) as is.
package func quoteLuaString(_ string: String) -> String {
  QuotedString.quote(string) { byte, quoted in
    guard byte < 32 || byte == 127 else { return false }
    quoted.append(UInt8(ascii: "\\"))
    quoted.append(48 + byte / 100)
    quoted.append(48 + byte / 10 % 10)
    quoted.append(48 + byte % 10)
    return true
  }
}

/// `quoteLuaString`, cut past the elision's characters: `"abcdefghij…" (100,000 characters, 99,990 not shown)`.
package func quoteLuaString(_ string: String, elision: Elision) -> String {
  guard let (shown, total) = elision.cut(string: string) else { return quoteLuaString(string) }
  return String(quoteLuaString(String(shown)).dropLast()) + "…\" " + Elision.cutNote(total: total, shown: elision.characters)
}
