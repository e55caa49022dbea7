import Foundation
import XCTest

/// Issue #31: work that escaped the instruction budget (pattern matching, finalizers, at exit)
/// and out of memory without --memory-limit. Every case must end, exit 1, and name FILE:LINE.
final class RunCommandBudgetTests: XCTestCase {
  /// Runs `relua ARGS` under `/bin/sh -c 'ulimit -v KB; exec relua …'` (no ulimit when nil),
  /// killed after `seconds`.
  func run(_ arguments: [String], addressSpaceKB: Int? = nil, seconds: Double = 120) throws -> ReluaProcess.Result {
    let quoted = ([ReluaProcess.binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    let limit = addressSpaceKB.map { "ulimit -v \($0); " } ?? ""
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", limit + "exec " + quoted.joined(separator: " ")]
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let group = DispatchGroup()
    nonisolated(unsafe) var outData = Data(), errData = Data()
    group.enter()
    DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    group.enter()
    DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    let timedOut = process.isRunning
    if timedOut { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    group.wait()
    if timedOut { XCTFail("relua \(arguments.joined(separator: " ")) did not end within \(seconds) s") }
    return ReluaProcess.Result(
      exitCode: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }

  func testAnExponentialPatternIsStoppedByTheInstructionLimit() throws {
    let dir = try ScriptDirectory()
    for (name, call) in [("find", "string.find(s, p)"), ("match", "s:match(p)"), ("gsub", "s:gsub(p, '')"),
                         ("gmatch", "for _ in s:gmatch(p) do end")] {
      let file = try dir.write("\(name).lua", """
        local s, p = ("a"):rep(28), ("a?"):rep(28) .. ("a"):rep(28) .. "b"
        \(call)
        print("never")
        """)
      let started = Date()
      let result = try run(["run", "--instruction-limit", "1000000", file], seconds: 60)
      XCTAssertEqual(result.exitCode, 1, result.stderr)
      XCTAssertEqual(result.stdout, "")
      XCTAssertTrue(result.stderr.contains("\(name).lua:2: instruction budget exhausted"), result.stderr)
      XCTAssertLessThan(Date().timeIntervalSince(started), 30)
    }
  }

  func testCtrlCStopsAPattern() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("bomb.lua", """
      print("started")
      local s = ("a"):rep(28)
      return s:find(("a?"):rep(28) .. s .. "b")
      """)
    let running = try RunningRelua(["run", file])
    let deadline = Date().addingTimeInterval(20)
    while !running.stdout.contains("started") && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    Thread.sleep(forTimeInterval: 0.3)
    kill(running.process.processIdentifier, SIGINT)
    let result = running.finish(seconds: 20)
    XCTAssertNotEqual(result.exitCode, 0)
    XCTAssertNotEqual(result.exitCode, 9, "killed: Ctrl-C did not stop it")
    XCTAssertTrue(result.stderr.contains("bomb.lua:3: interrupted!"), result.stderr)
  }

  func testALoopingFinalizerCannotHangTheExit() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("gc.lua", """
      local t = setmetatable({}, {__gc = function()
        while true do end
      end})
      print("done")
      """)
    for arguments in [["run", file], ["run", "--instruction-limit", "5000000", file]] {
      let result = try run(arguments, seconds: 60)
      XCTAssertEqual(result.exitCode, 1, result.stderr)
      XCTAssertEqual(result.stdout, "done\n")
      XCTAssertTrue(result.stderr.contains("gc.lua:2: instruction budget exhausted (in a __gc finalizer, at exit)"), result.stderr)
    }
  }

  func testALoopingFinalizerDuringARunIsStoppedByTheLimit() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("gcrun.lua", """
      setmetatable({}, {__gc = function() while true do end end})
      collectgarbage()
      print("after")
      """)
    let result = try run(["run", "--instruction-limit", "1000000", file], seconds: 60)
    XCTAssertEqual(result.exitCode, 1, result.stderr)
    XCTAssertTrue(result.stderr.contains("gcrun.lua:1: instruction budget exhausted"), result.stderr)
  }

  func testALoopingFinalizerFailsItsTestInsteadOfHangingRelua() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("gc_spec.lua", """
      describe("gc", function()
        it("loops in a finalizer", function()
          setmetatable({}, {__gc = function() while true do end end})
        end)
        it("passes", function() assert.are.equal(1, 1) end)
      end)
      """)
    let result = try run(["test", file], seconds: 120)
    XCTAssertEqual(result.exitCode, 1, result.stdout + result.stderr)
    XCTAssertTrue(result.stdout.contains("1 passed, 1 failed"), result.stdout)
    XCTAssertTrue(result.stdout.contains("gc_spec.lua:3: instruction budget exhausted (in a __gc finalizer"), result.stdout)
  }

  /// Out of memory without --memory-limit, under `ulimit -v`: coroutines, a doubling string, a
  /// table, a huge error message. Each was a panic (SIGABRT), a crash in Swift's allocator, or an
  /// error without a line.
  func testOutOfMemoryWithoutALimitIsALuaErrorAtTheLine() throws {
    let dir = try ScriptDirectory()
    let scripts = [
      "coroutines": "local t = {}\nfor i = 1, 1e8 do t[i] = coroutine.create(function() end) end",
      "string": "local s = \"x\"\nwhile true do s = s .. s end",
      "table": "local t = {}\nfor i = 1, 1e9 do t[i] = i end",
      "strings": "local s = (\"x\"):rep(2.5e8)\nlocal t = {} for i = 1, 100 do t[i] = s .. i end",
    ]
    for (name, source) in scripts.sorted(by: { $0.key < $1.key }) {
      let file = try dir.write("\(name).lua", source)
      for kilobytes in [1_000_000, 2_000_000] {
        let result = try run(["run", file], addressSpaceKB: kilobytes, seconds: 120)
        XCTAssertEqual(result.exitCode, 1, "\(name) at \(kilobytes) KB: \(result.stderr.prefix(300))")
        // (The line the memory ran out at: a temporary directory's long path is shortened by Lua.)
        let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        XCTAssertTrue(
          first.hasPrefix("relua: ") && (first.hasSuffix("/\(name).lua:2: not enough memory") || first.hasSuffix("/\(name).lua:1: not enough memory")),
          "\(name) at \(kilobytes) KB: \(result.stderr.prefix(300))")
      }
    }
  }
}
