import CLua
import Foundation
import XCTest

@testable import Lua

/// `LuaCoverage`: the line hook, on every thread, beside the count hook; and the lines the VM says
/// hold code.
final class CoverageTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("relua-coverage-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

  private func write(_ name: String, _ source: String) throws -> String {
    let path = directory.appendingPathComponent(name).path
    try source.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// Line 12 yields; `twice` has a branch that runs once, for 11.
  private let module = """
    local M = {}

    function M.twice(n)
      if n > 10 then
        return "big"
      end
      return n * 2
    end

    function M.producer()
      for i = 1, 3 do
        coroutine.yield(M.twice(i))
      end
    end

    return M
    """

  func testCountsTheLinesOfFilesOnEveryThread() throws {
    let path = try write("cov.lua", module)
    let coverage = LuaCoverage()
    let state = try LuaState(options: LuaOptions(instructionLimit: 1_000_000, coverage: coverage))
    let module = try XCTUnwrap(try state.execute(file: path).first?.tableValue)
    // A coroutine Swift makes and resumes: to its end.
    let producer = try XCTUnwrap(try module.rawGet("producer").functionValue)
    let thread = try state.thread(producer)
    for _ in 0..<4 { _ = try thread.resume() }
    // A coroutine Lua makes (it inherits the hook of the thread that makes it), resumed twice by
    // Lua; then the branch for a big number. This chunk is text, not a file: its lines are not counted.
    let results = try state.call(
      state.load("local M = ... local w = coroutine.wrap(M.producer) return w(), w(), M.twice(11)", name: "=driver"),
      .table(module))
    XCTAssertEqual(results, [2, 4, "big"])
    XCTAssertEqual(coverage.counts(), [:], "a state's counts arrive when it closes")
    state.close()
    // What Lua 5.4's own debug.sethook, set on each of these threads, counts for the same run:
    // the line where `for` jumps back counts each time; line 14 is both `producer`'s end and the
    // main chunk's statement making it.
    let expected = [1: 1, 3: 1, 4: 6, 5: 1, 7: 5, 8: 1, 10: 1, 11: 6, 12: 5, 14: 2, 16: 1]
    XCTAssertEqual(coverage.counts(), ["@" + path: expected])

    // A second state adds to the same counts.
    let again = try LuaState(options: LuaOptions(coverage: coverage))
    _ = try again.execute(file: path)
    again.close()
    var twice = expected
    for line in [1, 3, 8, 10, 14, 16] { twice[line]! += 1 }
    XCTAssertEqual(coverage.counts(), ["@" + path: twice])
  }

  func testTheLineHookKeepsTheBudgetAndInterrupts() throws {
    let path = try write("spin.lua", "local n = 0\nstarted()\nwhile true do\n  n = n + 1\nend\n")
    let coverage = LuaCoverage()
    let state = try LuaState(options: LuaOptions(instructionLimit: 100_000, coverage: coverage))
    let started = DispatchSemaphore(value: 0)
    try state.register("started") { _ in started.signal(); return [] }
    let error = assertLuaError { try state.execute(file: path) }
    guard case .instructionLimit(let location)? = error else { return XCTFail("\(String(describing: error))") }
    XCTAssertTrue(["spin.lua:3", "spin.lua:4"].contains { location?.hasSuffix($0) ?? false }, "\(location ?? "nil")")
    // pcall cannot swallow it, in a coroutine either.
    guard case .instructionLimit? = assertLuaError({
      try state.execute("coroutine.wrap(function() while true do pcall(function() while true do end end) end end)()")
    }) else { return XCTFail() }
    // Interrupts, with no budget: from another thread once the loop is about to start (an entry
    // from Swift clears an interrupt that came before it).
    state.instructionLimit = nil
    state.isInterruptible = true
    _ = started.wait(timeout: .now())  // the first run's signal
    let handle = state.interruptHandle
    DispatchQueue.global().async {
      started.wait()
      usleep(20_000)
      handle.interrupt()
    }
    guard case .interrupted? = assertLuaError({ try state.execute(file: path) }) else { return XCTFail() }
    state.close()
    let counts = try XCTUnwrap(coverage.counts()["@" + path])
    XCTAssertEqual(counts[1], 2)
    XCTAssertEqual(counts[2], 2)
    XCTAssertGreaterThan(counts[4] ?? 0, 1000, "the loop ran, counted, until the budget and the interrupt stopped it")
  }

  func testNoLineHookWithoutCoverage() throws {
    let probe = "return mask(), coroutine.wrap(function() return mask() end)()"
    func masks(_ options: LuaOptions) throws -> [Int32] {
      let state = try LuaState(options: options)
      try state.registerRaw("mask") { stack in
        stack.push(Int(stack.hookMask))
        return .values(1)
      }
      let path = try write("probe.lua", probe)
      let values = try state.execute(file: path).map { Int32($0.integerValue ?? -1) }
      XCTAssertEqual(state.hookMask & LUA_MASKLINE, values[0] & LUA_MASKLINE)
      return values
    }
    XCTAssertEqual(try masks(LuaOptions()), [0, 0], "no limit, no coverage: no hook at all")
    XCTAssertEqual(try masks(LuaOptions(instructionLimit: 1_000_000)), [LUA_MASKCOUNT, LUA_MASKCOUNT])
    XCTAssertEqual(try masks(LuaOptions(coverage: LuaCoverage())), [LUA_MASKLINE, LUA_MASKLINE])
    XCTAssertEqual(
      try masks(LuaOptions(instructionLimit: 1_000_000, coverage: LuaCoverage())),
      [LUA_MASKLINE | LUA_MASKCOUNT, LUA_MASKLINE | LUA_MASKCOUNT])
  }

  func testCodeLinesAreTheActiveLinesOfEveryFunction() throws {
    // Lua 5.4's debug.getinfo(f, "L").activelines of the chunk, `twice` and `producer`, together.
    XCTAssertEqual(try LuaCoverage.codeLines(ofFile: try write("cov.lua", module)), [1, 3, 4, 5, 7, 8, 10, 11, 12, 14, 16])
    // Nested three deep, a closure with upvalues, a string and float constants, a comment and a
    // table spread over lines.
    let nested = """
      -- a comment
      local function outer(a)
        local b = 1.5
        return function(c)
          local s = "text" .. c
          return function()
            return a + b, s
          end
        end
      end
      local t = {
        1,
        2,
      }
      return outer, t
      """
    XCTAssertEqual(try LuaCoverage.codeLines(ofFile: try write("nested.lua", nested)), [3, 5, 7, 8, 9, 10, 11, 12, 14, 15])
    XCTAssertEqual(try LuaCoverage.codeLines(ofFile: try write("empty.lua", "-- nothing\n")), [1])
    guard case .file(let message)? = assertLuaError({ try LuaCoverage.codeLines(ofFile: try self.write("bad.lua", "x = = 1")) })
    else { return XCTFail() }
    XCTAssertTrue(message.contains("bad.lua:1:"), message)
    guard case .file? = assertLuaError({ try LuaCoverage.codeLines(ofFile: self.directory.appendingPathComponent("none.lua").path) })
    else { return XCTFail() }
  }
}
