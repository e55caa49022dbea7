import CLua
import Foundation
import XCTest

@testable import Lua

final class LimitTests: XCTestCase {
  func testInstructionBudgetCannotBeSwallowedByPcall() throws {
    let state = try LuaState(options: LuaOptions(instructionLimit: 1_000_000))
    try assertBalanced(state) {
      let error = assertLuaError {
        try state.execute("local n = 0\nwhile true do pcall(function() while true do end end) end", name: "@spin.lua")
      }
      guard case .instructionLimit(let location)? = error else { return XCTFail("\(String(describing: error))") }
      XCTAssertEqual(location, "spin.lua:2", "names the line the script was stopped at")
      XCTAssertEqual(error?.description, "spin.lua:2: instruction budget exhausted")
      // Also through error handlers and coroutines.
      guard case .instructionLimit? = assertLuaError({
        try state.execute("while true do xpcall(function() while true do end end, function(m) return m end) end")
      }) else { return XCTFail() }
      guard case .instructionLimit? = assertLuaError({
        try state.execute("while true do coroutine.resume(coroutine.create(function() while true do end end)) end")
      }) else { return XCTFail() }
      // The state runs a normal chunk afterwards, with a fresh budget.
      XCTAssertEqual(try state.execute("local s = 0 for i = 1, 1000 do s = s + i end return s"), [500500])
    }
  }

  func testInstructionLimitIsAdjustableAndPerCall() throws {
    let state = try LuaState()
    XCTAssertNil(state.instructionLimit)
    let work = try state.load("local s = 0 for i = 1, 10000 do s = s + i end return s")
    XCTAssertEqual(try work.call(), [50005000])
    state.instructionLimit = 1000
    guard case .instructionLimit? = assertLuaError({ try work.call() }) else { return XCTFail() }
    state.instructionLimit = 1_000_000
    for _ in 0..<5 { XCTAssertEqual(try work.call(), [50005000]) }  // the budget is per call
    state.instructionLimit = nil
    XCTAssertEqual(try work.call(), [50005000])
  }

  func testBudgetAppliesToCoroutineResumes() throws {
    let state = try LuaState(options: LuaOptions(instructionLimit: 100_000))
    let spin = try state.load("return function() while true do end end").call()[0].functionValue!
    let thread = try state.thread(spin)
    guard case .instructionLimit? = assertLuaError({ try thread.resume() }) else { return XCTFail() }
  }

  func testMemoryBombIsStoppedAndStateStaysUsable() throws {
    let limit = 8 * 1024 * 1024
    let state = try LuaState(options: LuaOptions(memoryLimit: limit))
    try assertBalanced(state) {
      let error = assertLuaError { try state.execute("local t = {} for i = 1, 1e9 do t[i] = {i} end") }
      guard case .memory(let message)? = error else { return XCTFail("\(String(describing: error))") }
      XCTAssertEqual(message, "memory limit of \(limit) bytes exceeded")
      guard case .memory? = assertLuaError({ try state.execute("local s = 'x' while true do s = s .. s end") }) else {
        return XCTFail()
      }
      // pcall inside Lua can see it, but the state survives either way.
      XCTAssertEqual(try state.execute("return (pcall(string.rep, 'x', 1e9))"), [false])
      XCTAssertEqual(try state.execute("local t = {} for i = 1, 100 do t[i] = i end return #t"), [100])
      XCTAssertLessThanOrEqual(state.memoryUsed, limit)
    }
  }

  func testSwiftAllocationsPastTheLimitRaiseAfterTheCallback() throws {
    let state = try LuaState(options: LuaOptions(memoryLimit: 4 * 1024 * 1024))
    let huge = String(repeating: "x", count: 8 * 1024 * 1024)
    try state.register("huge") { _ in [.text(huge)] }
    guard case .memory? = assertLuaError({ try state.execute("local keep = huge() return #keep") }) else { return XCTFail() }
    XCTAssertEqual(try state.execute("return 1"), [1])
  }

  func testInterruptFromAnotherThread() throws {
    let state = try LuaState(options: LuaOptions(interruptible: true))
    let handle = state.interruptHandle
    let started = DispatchSemaphore(value: 0)
    try state.register("started") { _ in started.signal(); return [] }
    DispatchQueue.global().async {
      started.wait()
      usleep(20_000)
      handle.interrupt()
    }
    let error = assertLuaError {
      try state.execute("started() while true do pcall(function() while true do end end) end", name: "=stdin")
    }
    guard case .interrupted? = error else { return XCTFail("\(String(describing: error))") }
    XCTAssertEqual(error?.description, "stdin:1: interrupted!")
    XCTAssertEqual(try state.execute("return 'ok'"), ["ok"])
  }
  /// `callRaw` from a Swift function whose Lua stack cannot grow (it is at Lua's limit of a million
  /// slots) fails with a typed error instead of pushing past the end; the state stays usable.
  func testCallRawOnAFullStackFailsCleanly() throws {
    let state = try LuaState()
    let identity = try state.load("return ...")
    var failure: LuaError?
    var filled = 0
    // Unowned: the state keeps this function, so a strong capture would keep the state (and its
    // million-slot stack) alive forever, which LeakSanitizer reports.
    try state.registerRaw("callOnFullStack") { [unowned state] _ in
      try state.withRawState { L in
        let base = lua_gettop(L)
        while lua_checkstack(L, 64) != 0 { for _ in 0..<64 { lua_pushnil(L) } }
        filled = Int(lua_gettop(L) - base)
        defer { lua_settop(L, base) }
        do {
          _ = try state.callRaw(
            identity, argumentCount: 100, pushArguments: { L in for _ in 0..<100 { lua_pushboolean(L, 1) } },
            readResults: { _, _, count in count })
        } catch let error as LuaError {
          failure = error
        }
      }
      return .none
    }
    try assertBalanced(state) {
      try state.execute("callOnFullStack()")
      XCTAssertGreaterThan(filled, 900_000, "the stack was filled to Lua's limit")
      guard case .memory(let message)? = failure else { return XCTFail("\(String(describing: failure))") }
      XCTAssertEqual(message, "Lua stack overflow")
      XCTAssertEqual(try state.call(identity, 1, 2), [1, 2], "the state calls normally afterwards")
    }
  }
}
