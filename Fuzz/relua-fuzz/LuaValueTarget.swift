import Foundation
import Lua
import Composable
import Relua

/// `lua-value`: bytes as Lua source — an expression (`return` is put before it) or else a chunk —
/// run in a fresh sandboxed state (32 MB, 200,000 instructions). Its first result is converted to
/// a `Value` the way the host reads state (`StateViews.value(from:)`, `LuaValueReader`); what
/// converts is printed (one line, multi-line, elided within its lines), diffed against itself (no diff) and against
/// the second result if there is one, pushed back to Lua and read again (the same value), printed
/// as a Lua literal and loaded back (the same value), and written as JSON and read back.
@MainActor
final class LuaValueTarget: FuzzTarget {
  /// Small limits, so that inputs reach every cut.
  static let tiny = Elision(items: 2, characters: 3, depth: 2, lines: 6, textLines: 4, textCharacters: 40)

  func run(_ input: UnsafeRawBufferPointer) {
    let lua: LuaState
    do {
      lua = try LuaState(options: LuaOptions(memoryLimit: 32 << 20, instructionLimit: 200_000, print: luaOutput))
    } catch {
      fatalError("relua-fuzz lua-value: cannot make a Lua state: \(error)")
    }
    defer { lua.close() }
    let views: StateViews
    do {
      views = try StateViews(lua: lua)
    } catch {
      fatalError("relua-fuzz lua-value: cannot set up the state: \(error)")
    }

    var chunk: LuaFunction?
    let prefix = Array("return ".utf8)
    var expression = prefix + Array(input)
    chunk = expression.withUnsafeBytes { try? lua.load(bytes: $0, name: "=input") }
    if chunk == nil { chunk = try? lua.load(bytes: input, name: "=input") }
    expression = []
    guard let chunk, let results = try? lua.call(chunk), let first = results.first else { return }

    let value: Value
    do { value = try views.value(from: first) } catch { return }
    check(value, in: lua, views: views)

    if results.count > 1, let other = try? views.value(from: results[1]) {
      _ = ValueDiff.lines(from: value, to: other)
      if let diff = ValueDiff.lines(from: other, to: value, format: LuaLiteralFormat(width: 20, elision: Self.tiny)),
        diff.split(separator: "\n").count > Self.tiny.lines
      {
        invariantFailed("a diff runs past its elision's lines\n\(diff)")
      }
      if other != value, value.diff(to: other) == nil {
        invariantFailed("two different values have no diff\nfirst: \(value)\nsecond: \(other)")
      }
    }
  }

  private func check(_ value: Value, in lua: LuaState, views: StateViews) {
    let oneLine = value.luaLiteral()
    _ = value.luaLiteral(.multiLine)
    let elided = value.luaLiteral(LuaLiteralFormat(width: 10, elision: Self.tiny), indent: 4)
    if elided.split(separator: "\n").count > Self.tiny.lines { invariantFailed("a printout runs past its elision's lines\n\(elided)") }
    if let diff = value.diff(to: value) { invariantFailed("a value differs from itself:\n\(diff)") }

    // Pushed to Lua and read back (with itself as the hint: `{}` takes the kind it had).
    do {
      let pushed = try lua.value(value)
      let back = try views.value(from: pushed, hint: value)
      if back != value { invariantFailed("Value → Lua → Value changed it\nbefore: \(value)\nafter: \(back)") }
    } catch LuaError.memory {
      return
    } catch {
      invariantFailed("a Value read from Lua cannot be pushed back and read: \(error)\nvalue: \(oneLine)")
    }

    // Printed as a Lua literal and loaded back.
    do {
      let literal = try lua.load("return " + oneLine, name: "=literal")
      if let loaded = try lua.call(literal).first {
        let back = try views.value(from: loaded, hint: value)
        if back != value { invariantFailed("printing as a Lua literal and loading it changed the value\nbefore: \(value)\nafter: \(back)\nliteral: \(oneLine)") }
      }
    } catch LuaError.memory {
    } catch let error as LuaError where error.message.contains("instruction budget") {
    } catch {
      invariantFailed("a value's Lua literal does not load back: \(error)\nliteral: \(oneLine)")
    }

    // As JSON and back (values without NaN or infinities).
    if let json = try? value.json() {
      do {
        let back = try Value(json: json, hint: value)
        if emptiesAsRecords(back) != emptiesAsRecords(value) {
          invariantFailed("Value → JSON → Value changed it\nbefore: \(value)\nafter: \(back)\njson: \(json)")
        }
      } catch {
        invariantFailed("a value's JSON does not parse: \(error)\njson: \(json)")
      }
    }
  }
}
