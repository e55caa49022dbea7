import XCTest

/// `relua run FILE [ARGS…]`, driven as a user would from a shell.
final class RunCommandTests: XCTestCase {
  func testRunsAScriptWithPrint() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("hello.lua", #"print("hello", 1, 2.5, nil, true)"#)
    let result = try ReluaProcess.run(["run", file])
    XCTAssertEqual(result.exitCode, 0, result.stderr)
    XCTAssertEqual(result.stdout, "hello\t1\t2.5\tnil\ttrue\n")
    XCTAssertEqual(result.stderr, "")
  }

  func testPassesArgumentsAsVarargsAndArgTable() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("args.lua", """
      local a, b = ...
      print(a, b, select("#", ...), arg[0] ~= nil, arg[1], arg[2], #arg)
      """)
    let result = try ReluaProcess.run(["run", file, "one", "two"])
    XCTAssertEqual(result.exitCode, 0, result.stderr)
    XCTAssertEqual(result.stdout, "one\ttwo\t2\ttrue\tone\ttwo\t2\n")
  }

  func testRuntimeErrorPrintsFileLineAndTracebackAndExitsOne() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("boom.lua", """
      local function explode()
        error("kaboom")
      end
      explode()
      """)
    let result = try ReluaProcess.run(["run", file])
    XCTAssertEqual(result.exitCode, 1)
    XCTAssertTrue(result.stderr.contains("boom.lua:2: kaboom"), result.stderr)
    XCTAssertTrue(result.stderr.contains("stack traceback:"), result.stderr)
    XCTAssertTrue(result.stderr.contains("boom.lua:4:"), "traceback names the caller line: \(result.stderr)")
  }

  func testSyntaxErrorNamesFileAndLine() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("bad.lua", "local x = 1\nx = = 2\n")
    let result = try ReluaProcess.run(["run", file])
    XCTAssertEqual(result.exitCode, 1)
    XCTAssertTrue(result.stderr.contains("bad.lua:2:"), result.stderr)
  }

  func testMissingFileIsAClearError() throws {
    let result = try ReluaProcess.run(["run", "/nonexistent/nope.lua"])
    XCTAssertEqual(result.exitCode, 1)
    XCTAssertTrue(result.stderr.contains("nope.lua"), result.stderr)
  }

  func testInstructionLimitStopsARunawayLoopThatPcallCannotSwallow() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("spin.lua", "while true do pcall(function() while true do end end) end")
    let result = try ReluaProcess.run(["run", "--instruction-limit", "100000", file])
    XCTAssertNotEqual(result.exitCode, 0)
    XCTAssertTrue(result.stderr.contains("spin.lua:1: instruction budget exhausted"), result.stderr)
  }

  func testMemoryLimitStopsAMemoryBomb() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("bomb.lua", """
      local t = {}
      for i = 1, math.huge do t[i] = ("x"):rep(1024) .. i end
      """)
    let result = try ReluaProcess.run(["run", "--memory-limit", "2000000", file])
    XCTAssertNotEqual(result.exitCode, 0)
    XCTAssertTrue(result.stderr.contains("memory limit"), result.stderr)
    XCTAssertTrue(result.stderr.contains("exceeded"), result.stderr)
  }

  func testSandboxByDefaultAndTrustedOnRequest() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("probe.lua", "print(type(io), type(os.execute), type(os.time), type(dofile))")
    let sandboxed = try ReluaProcess.run(["run", file])
    XCTAssertEqual(sandboxed.exitCode, 0, sandboxed.stderr)
    XCTAssertEqual(sandboxed.stdout, "nil\tnil\tfunction\tnil\n")
    let trusted = try ReluaProcess.run(["run", "--trusted", file])
    XCTAssertEqual(trusted.exitCode, 0, trusted.stderr)
    XCTAssertEqual(trusted.stdout, "table\tfunction\tfunction\tfunction\n")
  }

  /// relua links Lua statically, and exports its API for C modules (built against the host's
  /// symbols, as Lua C modules are): trusted scripts can `require` one; sandboxed scripts cannot.
  func testTrustedScriptsLoadCModulesAgainstTheBuiltInLua() throws {
    let dir = try ScriptDirectory()
    let source = try dir.write("tiny.c", """
      #include <lua5.4/lua.h>
      #include <lua5.4/lauxlib.h>
      static int answer(lua_State *L) { lua_pushinteger(L, 40 + luaL_checkinteger(L, 1)); return 1; }
      int luaopen_tiny(lua_State *L) {
        lua_newtable(L); lua_pushcfunction(L, answer); lua_setfield(L, -2, "answer"); return 1;
      }
      """)
    let module = dir.url.appendingPathComponent("tiny.so").path
    guard let compiler = ["/usr/bin/cc", "/usr/bin/clang", "/opt/swift/usr/bin/clang"].first(where: FileManager.default.isExecutableFile) else {
      throw XCTSkip("no C compiler to build the test module")
    }
    let compile = Process()
    compile.executableURL = URL(fileURLWithPath: compiler)
    compile.arguments = ["-shared", "-fPIC", "-o", module, source]
    try compile.run()
    compile.waitUntilExit()
    XCTAssertEqual(compile.terminationStatus, 0, "compiling the test module")
    let file = try dir.write("use.lua", """
      package.cpath = \(String(reflecting: dir.url.path + "/?.so"))
      print(require("tiny").answer(2))
      """)
    let trusted = try ReluaProcess.run(["run", "--trusted", file])
    XCTAssertEqual(trusted.exitCode, 0, trusted.stderr)
    XCTAssertEqual(trusted.stdout, "42\n")
    let sandboxed = try ReluaProcess.run(["run", file])
    XCTAssertEqual(sandboxed.exitCode, 1)
    XCTAssertTrue(sandboxed.stderr.contains("module 'tiny' not found"), sandboxed.stderr)
  }

  func testRequireFindsModulesBesideTheScriptOnly() throws {
    let dir = try ScriptDirectory()
    try dir.write("lib/greeting.lua", "return { text = 'hi from lib' }")
    try dir.write("outside.lua", "return 'escaped'")
    let file = try dir.write("scripts/main.lua", """
      print(require("lib.greeting").text)
      """)
    // The script root is the script's own directory: `lib/` sits beside `scripts/`, so it is not found.
    let refused = try ReluaProcess.run(["run", file])
    XCTAssertEqual(refused.exitCode, 1)
    XCTAssertTrue(refused.stderr.contains("module 'lib.greeting' not found"), refused.stderr)

    let inside = try dir.write("main.lua", """
      print(require("lib.greeting").text)
      print(pcall(require, "../outside"))
      """)
    let result = try ReluaProcess.run(["run", inside])
    XCTAssertEqual(result.exitCode, 0, result.stderr)
    XCTAssertTrue(result.stdout.hasPrefix("hi from lib\nfalse\t"), result.stdout)
    XCTAssertFalse(result.stdout.contains("escaped"), result.stdout)
  }

  func testHelloScriptOfTheQuickStart() throws {
    let hello = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Scripts/hello.lua")
    let result = try ReluaProcess.run(["run", hello.path, "relua"])
    XCTAssertEqual(result.exitCode, 0, result.stderr)
    XCTAssertTrue(result.stdout.hasPrefix("Hello, relua!"), result.stdout)
  }
}
