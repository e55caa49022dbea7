import Foundation
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
          - "mixed_test.lua:5\\x3a in function <mixed_test.lua:4>"
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
    // case_websocket_test.lua asks `relua.testing.websocketEcho()` for an echo server on an
    // ephemeral port: the suite needs none started for it (and holds no fixed port).
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let result = try ReluaProcess.run(["test", "Scripts/Tests"], currentDirectory: root)
    XCTAssertEqual(result.exitCode, 0, result.stdout + result.stderr)
    XCTAssertTrue(result.stdout.contains("PASS assert_equal compares plain tables deeply"), result.stdout)
    let pendingWebSocketTests = result.stdout.split(separator: "\n").filter { $0.hasPrefix("SKIP") && $0.lowercased().contains("websocket") }
    XCTAssertEqual(pendingWebSocketTests, [], "no WebSocket test may be pending")
  }

  /// `relua.testing.websocketEcho()`: one echo server per `relua test` process, on a port the
  /// system picked, answering at the URL it gives (paths included); stopped when relua exits.
  func testTheWebSocketEchoHelperServesOnAnEphemeralPortOncePerProcess() throws {
    let dir = try ScriptDirectory()
    try dir.write("echo_test.lua", """
      local relua = require "relua"
      local ECHO = relua.testing.websocketEcho()
      test("the URL", function()
        expect(ECHO).to_match("^ws://127%.0%.0%.1:%d+/$")
        expect(relua.testing.websocketEcho()).to_be(ECHO)
        print("echo at " .. ECHO)
      end)
      test("the server echoes, at its paths too", function()
        local Echo = relua.feature "Echo" {
          state = {},
          actions = { go = "string", got = "string" },
          reduce = relua.on {
            go = function(_, url, deps)
              return relua.Effect.run(function(send)
                local socket <close> = deps.websocket.connect("e", url)
                socket:send("hi " .. url)
                for message in socket:receive() do send("got", message) end
              end)
            end,
            got = function() end,
          },
        }
        local store = relua.TestStore(Echo, { deps = { websocket = "live" } })
        store:send("go", ECHO .. "close")
        store:receive("got", "hi " .. ECHO .. "close")
        store:finish()
      end)
      test("the wrong call", function()
        expect(function() relua.testing.websocketEcho(1) end).to_error("takes no arguments")
      end)
      """)
    let result = try ReluaProcess.run(["test", "."], currentDirectory: dir.url)
    XCTAssertEqual(result.exitCode, 0, result.stdout + result.stderr)
    XCTAssertTrue(result.stdout.contains("3 passed, 0 failed"), result.stdout)
    let line = try XCTUnwrap(result.stdout.split(separator: "\n").first { $0.hasPrefix("echo at ") }, result.stdout)
    let port = try XCTUnwrap(UInt16(line.dropFirst("echo at ws://127.0.0.1:".count).dropLast()), String(line))
    XCTAssertNotEqual(port, 0)
    XCTAssertNotEqual(port, 8766)
    // relua has exited: its server with it.
    XCTAssertFalse(Self.accepts(port: port), "nothing should listen on \(port) after relua test ended")
  }

  /// Outside a test (`relua run`), the helper raises at the script's line; so does a name nothing
  /// registered, in a test or not.
  func testTestHelpersRaiseClearlyOutsideTests() throws {
    let dir = try ScriptDirectory()
    let script = try dir.write("notatest.lua", """
      local relua = require "relua"
      print("before")
      local url = relua.testing.websocketEcho()
      print("not reached", url)
      """)
    let run = try ReluaProcess.run(["run", script])
    XCTAssertEqual(run.exitCode, 1, run.stdout + run.stderr)
    XCTAssertEqual(run.stdout, "before\n")
    XCTAssertTrue(run.stderr.contains(
      "notatest.lua:3: relua.testing.websocketEcho() is a test helper: it runs only in tests (relua test), not in this script"),
      run.stderr)
    let unknown = try dir.write("unknown.lua", "local relua = require 'relua'\nlocal f = relua.testing.nope\n")
    let unknownRun = try ReluaProcess.run(["run", unknown])
    XCTAssertEqual(unknownRun.exitCode, 1)
    XCTAssertTrue(unknownRun.stderr.contains(
      "unknown.lua:2: relua.testing.nope: no test helper of this name is registered in this program (registered: websocketEcho;"),
      unknownRun.stderr)
    try dir.write("tests/unknown_test.lua", "test('x', function()\n  relua.testing.nope()\nend)\n")
    let test = try ReluaProcess.run(["test", "tests"], currentDirectory: dir.url)
    XCTAssertEqual(test.exitCode, 1, test.stdout)
    XCTAssertTrue(test.stdout.contains("unknown_test.lua:2: relua.testing.nope: no test helper of this name"), test.stdout)
  }

  /// Whether something accepts TCP connections on 127.0.0.1:`port`.
  private static func accepts(port: UInt16) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    } == 0
  }
}
