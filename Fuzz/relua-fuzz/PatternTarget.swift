import Foundation
import Lua

/// `pattern`: relua's pattern matcher (Sources/CLuaShim/pattern.c) against liblua's own
/// string.find/match/gmatch/gsub on the input (Fuzz/pattern-differential.lua's `check.input`:
/// lines pattern, subject, replacement, init). Different results or error messages are a broken
/// invariant. One trusted state for all inputs (the check keeps no state), with an instruction
/// limit: relua's matcher runs first and charges its steps, so an input whose matching costs
/// more than the limit (a pattern that backtracks polynomially or worse: libFuzzer finds them in
/// minutes) stops before liblua's matcher, which nothing stops, would run it; it is skipped.
@MainActor
final class PatternTarget: FuzzTarget {
  private let lua: LuaState
  private let check: LuaFunction

  init() {
    do {
      lua = try LuaState(options: LuaOptions(trusted: true, instructionLimit: 1_000_000, print: luaOutput))
      try lua.installLibluaPatternFunctions(asGlobal: "pattern_originals")
      let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("pattern-differential.lua").path
      let source = try String(contentsOfFile: path, encoding: .utf8)
      let setup = try lua.load(
        """
        local source = ...
        local O = pattern_originals()
        local M = {find = string.find, match = string.match, gmatch = string.gmatch, gsub = string.gsub}
        return assert(load(source, "@pattern-differential.lua"))(O, M).input
        """, name: "=pattern-target")
      guard case .function(let input)? = try lua.call(setup, .text(source)).first else {
        fatalError("relua-fuzz pattern: the differential check has no `input`")
      }
      check = input
    } catch {
      fatalError("relua-fuzz pattern: cannot set up the check: \(error)")
    }
  }

  func run(_ input: UnsafeRawBufferPointer) {
    let text = LuaValue.string(LuaString(bytes: Array(input)))
    let result: [LuaValue]
    do {
      result = try lua.call(check, text)
    } catch LuaError.instructionLimit {
      verbose("pattern: too costly to compare, skipped")
      return
    } catch {
      invariantFailed("the differential check itself failed: \(error)")
    }
    if case .string(let difference)? = result.first {
      invariantFailed("relua's pattern matcher differs from Lua's:\n\(difference.description)")
    }
  }
}
