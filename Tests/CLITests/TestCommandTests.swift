import WebSocketEcho
import XCTest

/// `relua test [PATH…] [--filter PATTERN] [--tap]`, driven as a user would from a shell.
final class TestCommandTests: XCTestCase {
  private let mixedSuite = """
    test("adds", function() assert_equal(1 + 1, 2) end)
    describe("strings", function()
      it("upper-cases", function() expect(("a"):upper()).to_be("A") end)
      it("fails", function()
        expect(("a"):rep(3)).to_be("aa")
      end)
    end)
    pending("someday")
    """

  func testAFilterThatMatchesNothingSaysSoAndFails() throws {
    let dir = try ScriptDirectory()
    try dir.write("mixed_test.lua", mixedSuite)
    let result = try ReluaProcess.run(["test", ".", "--filter", "nothing like this"], currentDirectory: dir.url)
    XCTAssertEqual(result.exitCode, 1, result.stdout)
    XCTAssertTrue(result.stderr.contains("relua test: no test's name contains 'nothing like this' (in .)"), result.stderr)
    let matching = try ReluaProcess.run(["test", ".", "--filter", "upper"], currentDirectory: dir.url)
    XCTAssertEqual(matching.exitCode, 0, matching.stdout + matching.stderr)
  }

  func testFakeGitHubPrintsItsAddressIntoAPipe() throws {
    let process = Process()
    process.executableURL = ReluaProcess.binary
    process.arguments = ["fake-github", "--port", "0"]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    defer { process.terminate() }
    // Block-buffered output would keep the line in the child until it exits (never).
    let arrived = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var data = Data()
    DispatchQueue.global().async {
      data = out.fileHandleForReading.availableData
      arrived.signal()
    }
    XCTAssertEqual(arrived.wait(timeout: .now() + 10), .success, "no address within 10 s")
    let line = String(decoding: data, as: UTF8.self)
    XCTAssertTrue(line.hasPrefix("Fake GitHub listening on http://127.0.0.1:"), line)
  }

  func testPrintsOneLinePerTestTheFailuresAndTheClosingLine() throws {
    let dir = try ScriptDirectory()
    try dir.write("mixed_test.lua", mixedSuite)
    let result = try ReluaProcess.run(["test", "."], currentDirectory: dir.url)
    XCTAssertEqual(result.exitCode, 1, result.stderr)
    XCTAssertEqual(result.stdout, """
      PASS adds
      PASS strings upper-cases
      FAIL strings fails
      SKIP someday

      Failures:

      1) strings fails
         mixed_test.lua:5: expected "aa", got "aaa"
         stack traceback:
           mixed_test.lua:5: in function <mixed_test.lua:4>

      2 passed, 1 failed, 1 skipped

      """)
  }

  func testAllPassingExitsZeroWithoutSkippedCount() throws {
    let dir = try ScriptDirectory()
    try dir.write("tests/a_test.lua", "test('one', function() end)")
    try dir.write("tests/deeper/b_test.lua", "test('two', function() end)")
    try dir.write("tests/helper.lua", "error('must not be loaded')")
    let result = try ReluaProcess.run(["test", "tests"], currentDirectory: dir.url)
    XCTAssertEqual(result.exitCode, 0, result.stdout + result.stderr)
    XCTAssertEqual(result.stdout, "PASS one\nPASS two\n\n2 passed, 0 failed\n")
  }

  func testDefaultsToScriptsTestsOrTheCurrentDirectory() throws {
    let dir = try ScriptDirectory()
    try dir.write("here_test.lua", "test('here', function() end)")
    let current = try ReluaProcess.run(["test"], currentDirectory: dir.url)
    XCTAssertEqual(current.stdout, "PASS here\n\n1 passed, 0 failed\n")
    try dir.write("Scripts/Tests/there_test.lua", "test('there', function() end)")
    let scripts = try ReluaProcess.run(["test"], currentDirectory: dir.url)
    XCTAssertEqual(scripts.stdout, "PASS there\n\n1 passed, 0 failed\n")
  }

  func testExitCodeIsTheNumberOfFailures() throws {
    let dir = try ScriptDirectory()
    try dir.write("many_test.lua", "for i = 1, 4 do test('fails ' .. i, function() error('no') end) end")
    try dir.write("syntax_test.lua", "test('x', function() end\n")
    let result = try ReluaProcess.run(["test", "."], currentDirectory: dir.url)
    XCTAssertEqual(result.exitCode, 5, result.stdout)
    XCTAssertTrue(result.stdout.contains("FAIL syntax_test.lua\n"), result.stdout)
    XCTAssertTrue(result.stdout.contains("syntax_test.lua:2: syntax error:"), result.stdout)
    XCTAssertTrue(result.stdout.hasSuffix("\n0 passed, 5 failed\n"), result.stdout)
  }

  func testTAPOutput() throws {
    let dir = try ScriptDirectory()
    try dir.write("mixed_test.lua", mixedSuite)
    let result = try ReluaProcess.run(["test", "--tap", "."], currentDirectory: dir.url)
    XCTAssertEqual(result.exitCode, 1)
    XCTAssertEqual(result.stdout, """
      TAP version 13
      1..4
      ok 1 - adds
      ok 2 - strings upper-cases
      not ok 3 - strings fails
        ---
        message: "expected \\"aa\\", got \\"aaa\\""
        at: "mixed_test.lua:5"
        traceback:
          - "mixed_test.lua:5: in function <mixed_test.lua:4>"
        ...
      ok 4 - someday # SKIP
      # 2 passed, 1 failed, 1 skipped

      """)
  }

  func testFilterIsAPlainSubstringOfTheFullName() throws {
    let dir = try ScriptDirectory()
    try dir.write("mixed_test.lua", mixedSuite)
    let result = try ReluaProcess.run(["test", "--filter", "strings up", "."], currentDirectory: dir.url)
    XCTAssertEqual(result.exitCode, 0, result.stdout)
    XCTAssertEqual(result.stdout, "PASS strings upper-cases\n\n1 passed, 0 failed\n")
    let pattern = try ReluaProcess.run(["test", "--filter", "a.d", "."], currentDirectory: dir.url)
    XCTAssertEqual(pattern.stdout, "\n0 passed, 0 failed\n", "not a Lua pattern")
  }

  func testLimitsStopRunawayAndMemoryBombTests() throws {
    let dir = try ScriptDirectory()
    try dir.write("limits_test.lua", """
      test("spins", function()
        while true do end
      end)
      test("bombs", function()
        local t = {}
        for i = 1, math.huge do t[i] = ("x"):rep(1024) .. i end
      end)
      """)
    let result = try ReluaProcess.run(
      ["test", "--instruction-limit", "1000000", "--memory-limit", "8000000", "."], currentDirectory: dir.url)
    XCTAssertEqual(result.exitCode, 2)
    XCTAssertTrue(result.stdout.contains("limits_test.lua:2: instruction budget exhausted"), result.stdout)
    XCTAssertTrue(result.stdout.contains("limits_test.lua:6: memory limit of 8000000 bytes exceeded"), result.stdout)
  }

  func testRepositorySuitePasses() throws {
    // case_websocket_test.lua talks to an echo server at ws://127.0.0.1:8766/ (another one
    // already listening there answers the same).
    let echo = WebSocketEchoServer()
    _ = try? echo.start(port: 8766)
    defer { echo.stop() }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let result = try ReluaProcess.run(["test", "Scripts/Tests"], currentDirectory: root)
    XCTAssertEqual(result.exitCode, 0, result.stdout + result.stderr)
    XCTAssertTrue(result.stdout.contains("PASS assert_equal compares plain tables deeply"), result.stdout)
  }
}
