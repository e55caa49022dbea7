import Composable

/// Lua values as people read them, printed in Lua itself: what the REPL shows for a result and
/// what a test's `assert_equal` / `expect` failure shows. Values that never become state (tables
/// with cycles, functions, metatables) are printed here; `Value`s, by `LuaLiteralPrinter`, with
/// the same rule: `Elision.standard`'s limits and words are written into this chunk, and
/// `ElidedPrintingTests` checks that both print a value alike.
///
/// The chunk returns `print(value, options)`: `options.width` lays tables out on lines (nil: one
/// line), `options.all` shows everything, `options.bare` returns a string as it is (the REPL's
/// results, cut as text by the caller), `options.tostring` is how other values and tables with a
/// `__tostring` become text (the REPL passes plain `tostring`, so that Ctrl-C stops a loop in one;
/// tests a protected one). Tables print in literal syntax, keys in a stable order (the sequence
/// part first, then numbers, then strings, then others), identifier keys bare, cycles marked
/// `<cycle>`; a table with a `__tostring` prints its text (cut as a string is, unquoted); other
/// values as `<function: 0x…>`.
package enum LuaValuePrinter {
  package static let chunkName = "=[relua printer]"

  package static var source: String { source(Elision.standard) }

  static func source(_ elision: Elision) -> String {
    let limits = "{ items = \(elision.items), characters = \(elision.characters), depth = \(elision.depth), lines = \(elision.lines) }"
    return """
      local LIMITS = \(limits)
      local MORE, CUT = \(quoteLuaString(Elision.moreTemplate)), \(quoteLuaString(Elision.cutTemplate))
      """ + "\n" + body
  }

  /// Sources/Relua/Lua/printer.lua, read once per process (`ReluaLuaSource`).
  private static let body = ReluaLuaSource.text("printer.lua")
}
