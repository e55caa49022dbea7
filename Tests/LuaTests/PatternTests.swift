import Foundation
import XCTest

@testable import Lua

/// relua's pattern matcher (Sources/CLuaShim/pattern.c): Lua 5.4's semantics, checked against
/// liblua's own functions (Fuzz/pattern-differential.lua), and every step charged to the budget.
final class PatternTests: XCTestCase {
  static let differentialSource: String = {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fuzz/pattern-differential.lua").path
    return (try? String(contentsOfFile: path, encoding: .utf8)) ?? "error('cannot read \(path)')"
  }()

  /// A trusted state with the differential check as the global `check` (and `O`, `M`: liblua's
  /// functions and relua's).
  func differentialState() throws -> LuaState {
    let state = try LuaState(options: LuaOptions(trusted: true))
    try state.installLibluaPatternFunctions(asGlobal: "pattern_originals")
    try state.execute("""
      O = pattern_originals()
      M = {find = string.find, match = string.match, gmatch = string.gmatch, gsub = string.gsub}
      assert(O.find ~= M.find and ("x"):find("x") == 1 and ("x").find == M.find)
      """)
    let check = try state.load(Self.differentialSource, name: "@pattern-differential.lua")
    let results = try state.call(check, arguments: [try state.global("O"), try state.global("M")])
    try state.setGlobal("check", results[0])
    return state
  }

  func testRandomCasesAgreeWithLua() throws {
    let state = try differentialState()
    let results = try state.execute("return check.random(100000, 31)")
    XCTAssertEqual(results.first, .integer(100000))
    if results.count > 1, case .string(let difference) = results[1] { XCTFail("differs from Lua: \(difference)") }
  }

  /// pm.lua-like cases: %b, %f, back-references, gsub with a table and a function, anchors, empty
  /// matches in gmatch and gsub, malformed patterns (each message), the limits.
  func testLuaPatternBehaviourIsIdentical() throws {
    let state = try differentialState()
    let cases: [(String, String, String, String, String)] = [
      // subject, pattern, replacement (Lua expression), init, plain
      ("hello world", "o", "'0'", "nil", "nil"),
      ("hello world", "l+", "'L'", "nil", "nil"),
      ("hello world", "^h", "'H'", "nil", "nil"),
      ("hello world", "d$", "'D'", "nil", "nil"),
      ("hello world", "^$", "'x'", "nil", "nil"),
      ("", "^$", "'x'", "nil", "nil"),
      ("", "", "'x'", "nil", "nil"),
      ("abc", "", "'-'", "nil", "nil"),
      ("abc", "%w*", "'-'", "nil", "nil"),
      ("abc d", "%w*", "'<%0>'", "nil", "nil"),
      ("THE (quick) fox", "%f[%a]%a+", "'W'", "nil", "nil"),
      ("THE (quick) fox", "%f[%l]", "'|'", "nil", "nil"),
      ("aaa", "%f[a]", "'|'", "nil", "nil"),
      ("a(b(c)d)e", "%b()", "'[]'", "nil", "nil"),
      ("a(b(c)d", "%b()", "'[]'", "nil", "nil"),
      ("f(a,b) g(c)", "(%w+)(%b())", "'%2%1'", "nil", "nil"),
      ("hello hello world", "(%w+) %1", "'<%1>'", "nil", "nil"),
      ("xyzzy", "(.)%1", "'%1'", "nil", "nil"),
      ("abc", "()(b)()", "'%1%2%3'", "nil", "nil"),
      ("name=value; x=y", "(%w+)=(%w+)", "{name = 'N', x = false}", "nil", "nil"),
      ("name=value; x=y", "(%w+)=(%w+)", "function(k, v) return v .. '=' .. k end", "nil", "nil"),
      ("abc", "%w", "function(c) if c == 'b' then return nil end return c:upper() end", "nil", "nil"),
      ("abc", "%w", "function(c) return {} end", "nil", "nil"),
      ("abc", "%w", "{a = true}", "nil", "nil"),
      ("abc", "%w", "'%2'", "nil", "nil"),
      ("abc", "%w", "'%'", "nil", "nil"),
      ("abc", "%w", "'%x'", "nil", "nil"),
      ("abc", "(%w)", "'%1%0%%'", "2", "nil"),
      ("a.b.c", ".", "'x'", "nil", "true"),
      ("a.b.c", "%.", "'x'", "-2", "nil"),
      ("a+b", "+", "'x'", "nil", "true"),
      ("a+b", "a+b", "'x'", "nil", "true"),
      ("a\0b", "\0", "'x'", "nil", "nil"),
      ("a\0b", "%z", "'x'", "nil", "nil"),
      ("abc", "b", "'x'", "10", "nil"),
      ("abc", "b", "'x'", "-10", "nil"),
      ("abc", "", "'x'", "4", "nil"),
      ("abc", "", "'x'", "5", "nil"),
      ("abc", "[a-", "'x'", "nil", "nil"),
      ("abc", "[a", "'x'", "nil", "nil"),
      ("abc", "%", "'x'", "nil", "nil"),
      ("abc", "(a", "'x'", "nil", "nil"),
      ("abc", "a)", "'x'", "nil", "nil"),
      ("abc", "%1", "'x'", "nil", "nil"),
      ("abc", "(a%1)", "'x'", "nil", "nil"),
      ("abc", "%b", "'x'", "nil", "nil"),
      ("abc", "%ba", "'x'", "nil", "nil"),
      ("abc", "%f", "'x'", "nil", "nil"),
      ("abc", "%fa", "'x'", "nil", "nil"),
      ("abc", "[]]", "'x'", "nil", "nil"),
      ("a]c", "[]]", "'x'", "nil", "nil"),
      ("a]c", "[^]]", "'x'", "nil", "nil"),
      ("a-c", "[a-]", "'x'", "nil", "nil"),
      ("a-c", "[%a-]", "'x'", "nil", "nil"),
      ("aaab", "a-b", "'x'", "nil", "nil"),
      ("aaab", "a-", "'x'", "nil", "nil"),
      ("aaab", "a?a?b", "'x'", "nil", "nil"),
      (String(repeating: "a", count: 40), String(repeating: "a?", count: 30), "'x'", "nil", "nil"),
      (String(repeating: "a", count: 300), String(repeating: "a?", count: 210), "'x'", "nil", "nil"),
      ("abc", String(repeating: "()", count: 32), "'x'", "nil", "nil"),
      ("abc", String(repeating: "()", count: 33), "'x'", "nil", "nil"),
      ("abc", "abc", "'x'", "nil", "nil"),
      ("abc", "^abc$", "'x'", "nil", "nil"),
      ("abc", "^b", "'x'", "nil", "nil"),
      ("a^b", "^", "'x'", "nil", "nil"),
      ("a$b", "$b", "'x'", "nil", "nil"),
      ("a$b", "a$", "'x'", "nil", "nil"),
      ("  trim  ", "^%s*(.-)%s*$", "'%1'", "nil", "nil"),
      ("key = value", "^(%w+)%s*=%s*(%w+)$", "'%2 = %1'", "nil", "nil"),
      ("x", "()", "'%1'", "nil", "nil"),
      ("abc", "()", "'%1'", "nil", "nil"),
      ("ab", "a()", "{}", "nil", "nil"),
    ]
    for (subject, pattern, replacement, initial, plain) in cases {
      let script = "return check.compare(\(luaQuoted(subject)), \(luaQuoted(pattern)), \(replacement), \(initial), \(plain))"
      let result = try state.execute(script)
      if case .string(let difference)? = result.first { XCTFail("differs from Lua: \(difference)") }
    }
    // gmatch's init (5.4) and its empty matches, gsub's count limit.
    try state.execute("""
      local function all(...) local t = {} for a, b in M.gmatch(...) do t[#t + 1] = tostring(a) .. ':' .. tostring(b) end return table.concat(t, ' ') end
      local function all_lua(...) local t = {} for a, b in O.gmatch(...) do t[#t + 1] = tostring(a) .. ':' .. tostring(b) end return table.concat(t, ' ') end
      for _, c in ipairs({{"abc", ""}, {"abc", "()"}, {"a,b,,c", "([^,]*)"}, {"abc", ".", 2}, {"abc", ".", -1}, {"abc", "", 10},
                          {"k=v, a=b", "(%w+)=(%w+)"}, {"abc", "%w*", 2}, {"^a^", "^a"}}) do
        assert(all(table.unpack(c)) == all_lua(table.unpack(c)), c[2])
      end
      for n = -1, 4 do
        local a, an = O.gsub("a a a", "a", "b", n)
        local b, bn = M.gsub("a a a", "a", "b", n)
        assert(a == b and an == bn)
      end
      """)
  }

  func testExponentialPatternIsStoppedByTheInstructionLimit() throws {
    let state = try LuaState(options: LuaOptions(instructionLimit: 1_000_000))
    for call in ["string.find(s, p)", "string.match(s, p)", "s:gsub(p, '')", "for x in s:gmatch(p) do end",
                 "pcall(string.find, s, p)"] {
      let started = Date()
      let error = assertLuaError {
        try state.execute("""
          local s, p = ("a"):rep(28), ("a?"):rep(28) .. ("a"):rep(28) .. "b"
          \(call)
          return 'finished'
          """, name: "@bomb.lua")
      }
      XCTAssertEqual(error?.description, "bomb.lua:2: instruction budget exhausted", call)
      XCTAssertLessThan(Date().timeIntervalSince(started), 5, call)
    }
    // pcall cannot swallow it; the state stays usable, with a fresh budget.
    guard case .instructionLimit? = assertLuaError({
      try state.execute("local s = ('a'):rep(28) while true do pcall(s.find, s, ('a?'):rep(28) .. s .. 'b') end")
    }) else { return XCTFail() }
    XCTAssertEqual(try state.execute("return ('hello'):find('l+')"), [3, 4])
  }

  /// The class: a plain search that is quadratic, a long %b scan, a gsub over a long subject.
  func testEveryKindOfMatcherWorkIsCharged() throws {
    let state = try LuaState(options: LuaOptions(instructionLimit: 1_000_000))
    for line in [
      "local s = ('a'):rep(200000) return s:find(('a'):rep(100000) .. 'b', 1, true)",
      "local s = ('('):rep(2000000) return s:find('%b()')",
      "local s = ('a'):rep(5000000) return s:gsub('a', 'b')",
      "local s = ('a'):rep(5000000) return s:match('.-b')",
    ] {
      guard case .instructionLimit? = assertLuaError({ try state.execute(line, name: "@work.lua") }) else { return XCTFail(line) }
    }
  }

  func testInterruptStopsAPattern() throws {
    let state = try LuaState(options: LuaOptions(interruptible: true))
    let handle = state.interruptHandle
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { handle.interrupt() }
    let started = Date()
    let error = assertLuaError {
      try state.execute("local s = ('a'):rep(28)\nreturn s:find(('a?'):rep(28) .. s .. 'b')", name: "@bomb.lua")
    }
    guard case .interrupted(let location, _)? = error else { return XCTFail("\(String(describing: error))") }
    XCTAssertEqual(location, "bomb.lua:2")
    XCTAssertLessThan(Date().timeIntervalSince(started), 5)
  }

  func testSandboxedStatesUseRelua() throws {
    let state = try LuaState()
    XCTAssertEqual(try state.execute("return ('key=val'):match('(%w+)=(%w+)')"), ["key", "val"])
    XCTAssertEqual(try state.execute("return ('a,b'):gsub(',', ';')"), ["a;b", 1])
  }
}

func luaQuoted(_ text: String) -> String {
  var out = "\""
  for byte in text.utf8 {
    switch byte {
    case UInt8(ascii: "\""): out += "\\\""
    case UInt8(ascii: "\\"): out += "\\\\"
    case 32..<127: out += String(UnicodeScalar(byte))
    default: out += "\\\(byte)"
    }
  }
  return out + "\""
}
