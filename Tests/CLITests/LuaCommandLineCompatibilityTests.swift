import XCTest

/// lua.c's command line as Lua's own test of its interpreter (Tests/luac) checks it, one behaviour
/// at a time: what `relua` and `relua repl` do as `lua` does.
final class LuaCommandLineCompatibilityTests: XCTestCase {
  func testArgHoldsTheWordsBeforeTheScriptAndIsThereForTheOptions() throws {
    let dir = try ScriptDirectory()
    let script = try dir.write("show.lua", "print(arg[-1], arg[-2], arg[-3], ...)")
    let result = try ReluaProcess.run(["-e", "print(#arg, arg[0] ~= nil)", "--", script, "a", "b"])
    XCTAssertEqual(result.stdout, "2\ttrue\n--\tprint(#arg, arg[0] ~= nil)\t-e\ta\tb\n", result.stderr)
    XCTAssertTrue(try ReluaProcess.run(["-e", "print(arg[0])"]).stdout.hasSuffix("relua\n"))

    // The script's `...` is read from `arg` when it starts; `arg` replaced is lua.c's error.
    let changed = try ReluaProcess.run(["-e", "arg[1] = 100", "-", "x"], stdin: "print(...)")
    XCTAssertEqual(changed.stdout, "100\n", changed.stderr)
    let replaced = try ReluaProcess.run(["-e", "arg = 1", "-"], stdin: "")
    XCTAssertEqual(replaced.exitCode, 1)
    XCTAssertTrue(replaced.stderr.contains("'arg' is not a table"), replaced.stderr)

    let repl = try ReluaProcess.run(["repl", script, "a", "b"], stdin: "")
    XCTAssertEqual(repl.stdout, "repl\t\(ReluaProcess.binary.path)\tnil\ta\tb\n", repl.stderr)
  }

  func testVersionComesFirstWithLuasCopyright() throws {
    let result = try ReluaProcess.run(["-v", "-e", "print 'hello'"])
    XCTAssertTrue(result.stdout.hasPrefix("relua (Lua 5.4."), result.stdout)
    XCTAssertTrue(result.stdout.contains("PUC-Rio\nhello\n"), result.stdout)
  }

  func testWarningsStartOffAndDashWTurnsThemOn() throws {
    let off = try ReluaProcess.run(["-e", "warn('hidden')"])
    XCTAssertEqual(off.stderr, "")
    let on = try ReluaProcess.run(["-W", "-e", "warn('shown'); warn('', '@on')"])
    XCTAssertEqual(on.stderr, "Lua warning: shown\nLua warning: @on\n")
  }

  func testDashEIgnoresTheEnvironment() throws {
    let result = try ReluaProcess.run(
      ["--trusted", "-E", "-e", "print(x, package.path:find('nowhere', 1, true))"],
      environment: ["LUA_INIT": "x = 1", "LUA_PATH": "nowhere/?.lua"])
    XCTAssertEqual(result.stdout, "nil\tnil\n", result.stderr)
  }

  func testErrorsAndExitsAsLuaC() throws {
    let dir = try ScriptDirectory()
    let table = try ReluaProcess.run([try dir.write("table.lua", "error{}")])
    XCTAssertEqual(table.exitCode, 1)
    XCTAssertTrue(table.stderr.contains("(error object is a table value)"), table.stderr)

    let closing = try dir.write("closing.lua", """
      local x <close> = setmetatable({}, {__close = function (_, e) print("closed", e) end})
      os.exit(3, true)
      """)
    let exited = try ReluaProcess.run(["--trusted", closing])
    XCTAssertEqual(exited.exitCode, 3)
    XCTAssertEqual(exited.stdout, "closed\tnil\n", exited.stderr)

    let unfinished = try ReluaProcess.run([], stdin: "print(1)\nfor i = 1, 2 do\n")
    XCTAssertEqual(unfinished.stdout, "1\n")
    XCTAssertTrue(unfinished.stderr.contains("'end' expected near <eof>"), unfinished.stderr)
  }

  func testOptionErrorsPrintOneUsageAndExit1() throws {
    for words in [["--trusted", "-h"], ["repl", "---"], ["repl", "-e"]] {
      let result = try ReluaProcess.run(words)
      XCTAssertEqual(result.exitCode, 1, "\(words)")
      XCTAssertEqual(result.stderr.components(separatedBy: "usage: relua").count, 2, result.stderr)
    }
  }

  func testPromptsSetByTheScriptWithDashIWithoutATerminal() throws {
    let result = try ReluaProcess.run(["-e", "_PROMPT = 'P> ' _PROMPT2 = 'P>> '", "-i"], stdin: "x =\n1\n=x\n")
    XCTAssertEqual(result.stdout, "P> x =\nP>> 1\nP> =x\n1\nP> \n", result.stderr)
  }
}
