import XCTest

/// `relua` alone and `relua repl` with lua.c's options, driven as a user would from a shell.
final class LuaCommandLineTests: XCTestCase {
  func testVersionExecuteAndLibraries() throws {
    let version = try ReluaProcess.run(["-v"])
    XCTAssertEqual(version.exitCode, 0)
    XCTAssertTrue(version.stdout.hasPrefix("relua (Lua 5.4."), version.stdout)

    let result = try ReluaProcess.run(["-l", "string", "-l", "t=table", "-e", "print(string.upper('a'), t.concat({1, 2}, '+'))"])
    XCTAssertEqual(result.exitCode, 0, result.stderr)
    XCTAssertEqual(result.stdout, "A\t1+2\n")

    let attached = try ReluaProcess.run(["-eprint(40 + 2)"])
    XCTAssertEqual(attached.stdout, "42\n")
  }

  func testOptionsRunInOrderBeforeTheScriptWhichGetsItsArguments() throws {
    let dir = try ScriptDirectory()
    let script = try dir.write("show.lua", "print(x, arg[0] ~= nil, ...)")
    let result = try ReluaProcess.run(["-e", "x = 41", "-e", "x = x + 1", script, "a", "-e"])
    XCTAssertEqual(result.exitCode, 0, result.stderr)
    XCTAssertEqual(result.stdout, "42\ttrue\ta\t-e\n")
    // `--` ends the options: a script may be named like one.
    let dashed = try dir.write("-e", "print('dashed')")
    let ended = try ReluaProcess.run(["--", dashed], currentDirectory: dir.url)
    XCTAssertEqual(ended.stdout, "dashed\n", ended.stderr)
  }

  func testStandardInputAsAChunkWithArguments() throws {
    let result = try ReluaProcess.run(["-", "x", "y"], stdin: "print('stdin', ...)")
    XCTAssertEqual(result.exitCode, 0, result.stderr)
    XCTAssertEqual(result.stdout, "stdin\tx\ty\n")
  }

  func testErrorsAndUnknownOptions() throws {
    let failing = try ReluaProcess.run(["-e", "error('no')"])
    XCTAssertEqual(failing.exitCode, 1)
    XCTAssertTrue(failing.stderr.contains("(command line):1: no"), failing.stderr)

    let unknown = try ReluaProcess.run(["-q"])
    XCTAssertEqual(unknown.exitCode, 1)
    XCTAssertTrue(unknown.stderr.contains("relua: unrecognized option '-q'"), unknown.stderr)
    XCTAssertTrue(unknown.stderr.contains("usage: relua [options] [script [args]]"), unknown.stderr)

    let missing = try ReluaProcess.run(["-e"])
    XCTAssertTrue(missing.stderr.contains("'-e' needs argument"), missing.stderr)  // lua.c's words
  }

  func testReluaAloneIsTheREPLAndReplTakesTheSameOptions() throws {
    // Piped into relua alone, standard input is one chunk (lua.c's `lua < file`): a syntax error
    // anywhere runs none of it. `relua repl` reads it line by line, as its prompt would.
    let alone = try ReluaProcess.run([], stdin: "print(1 + 2)\n")
    XCTAssertEqual(alone.exitCode, 0, alone.stderr)
    XCTAssertEqual(alone.stdout, "3\n")
    let broken = try ReluaProcess.run([], stdin: "x = = 1\nprint(2)\n")
    XCTAssertEqual(broken.exitCode, 1)
    XCTAssertEqual(broken.stdout, "", "nothing of a chunk with a syntax error runs")
    XCTAssertTrue(broken.stderr.contains("stdin:1:"), broken.stderr)

    let repl = try ReluaProcess.run(["repl", "-e", "x = 5", "-l", "s=string"], stdin: "=s.rep('x', x)\n")
    XCTAssertEqual(repl.exitCode, 0, repl.stderr)
    XCTAssertEqual(repl.stdout, "xxxxx\n")

    let interactive = try ReluaProcess.run(["-i", "-e", "y = 7"], stdin: "=y\n")
    XCTAssertEqual(interactive.stdout, "7\n", interactive.stderr)
  }

  func testTheREPLFindsTheRepositorysScriptsFromItsRoot() throws {
    let dir = try ScriptDirectory()
    try dir.write("Scripts/Features/Thing.lua", "return require('Features.Part')")
    try dir.write("Scripts/Features/Part.lua", "return 'part'")
    let result = try ReluaProcess.run(["repl"], stdin: "=(require('Features.Thing')), (require('Scripts.Features.Thing'))\n", currentDirectory: dir.url)
    XCTAssertEqual(result.stdout, "part\tpart\n", result.stderr)
  }

  func testLuaInitAndLuaPathInTrustedModeOnly() throws {
    let dir = try ScriptDirectory()
    let initFile = try dir.write("init.lua", "fromFile = 'yes'")
    try dir.write("mods/m.lua", "return 'module m'")
    let trusted = try ReluaProcess.run(
      ["--trusted", "-e", "print(x, fromFile == nil, require('m'))"],
      environment: ["LUA_INIT": "x = 3", "LUA_PATH": dir.url.path + "/mods/?.lua"])
    XCTAssertEqual(trusted.stdout, "3\ttrue\tmodule m\t\(dir.url.path)/mods/m.lua\n", trusted.stderr)

    let versioned = try ReluaProcess.run(
      ["--trusted", "-e", "print(fromFile)"], environment: ["LUA_INIT_5_4": "@" + initFile, "LUA_INIT": "error('not this one')"])
    XCTAssertEqual(versioned.stdout, "yes\n", versioned.stderr)

    let sandboxed = try ReluaProcess.run(["-e", "print(x)"], environment: ["LUA_INIT": "x = 3"])
    XCTAssertEqual(sandboxed.stdout, "nil\n", "a sandboxed state reads no environment")

    let script = try dir.write("show.lua", "print(x)")
    let run = try ReluaProcess.run(["run", "--trusted", script], environment: ["LUA_INIT": "x = 'init'"])
    XCTAssertEqual(run.stdout, "init\n", run.stderr)
  }
}
