import CLua
import Foundation
import XCTest

@testable import Lua

/// `__gc` finalizers run under the instruction budget and interrupts (Lua runs them with hooks
/// off; relua runs a Lua finalizer in a coroutine of its own: CLuaShim/shim.c, "Finalizers under
/// the budget"), and at close under a budget of their own.
final class FinalizerBudgetTests: XCTestCase {
  final class Warnings: @unchecked Sendable {
    var lines: [String] = []
  }

  func testTheSelfCheckPassedOnThisLiblua() throws {
    _ = try LuaState()
    XCTAssertTrue(LuaState.finalizersAreBudgeted, "the startup self-check against liblua \(LUA_VERSION_NUM) failed")
  }

  func testALoopingFinalizerIsStoppedByTheLimitDuringARun() throws {
    let warnings = Warnings()
    let state = try LuaState(options: LuaOptions(instructionLimit: 1_000_000, warningHandler: { warnings.lines.append($0) }))
    let started = Date()
    let error = assertLuaError {
      try state.execute("""
        setmetatable({}, {__gc = function()
          while true do end
        end})
        collectgarbage()
        return 'not reached'
        """, name: "@gc.lua")
    }
    guard case .instructionLimit(let location)? = error else { return XCTFail("\(String(describing: error))") }
    XCTAssertEqual(location, "gc.lua:2", "names the finalizer's line")
    XCTAssertEqual(warnings.lines, ["error in __gc (gc.lua:2: instruction budget exhausted)"])
    XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    XCTAssertEqual(try state.execute("return 1 + 1"), [2], "usable afterwards")
  }

  func testAnInterruptStopsAFinalizer() throws {
    let warnings = Warnings()
    let state = try LuaState(options: LuaOptions(interruptible: true, warningHandler: { warnings.lines.append($0) }))
    let handle = state.interruptHandle
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { handle.interrupt() }
    let error = assertLuaError {
      try state.execute("setmetatable({}, {__gc = function() while true do end end})\ncollectgarbage()\nreturn 1", name: "@gc.lua")
    }
    guard case .interrupted? = error else { return XCTFail("\(String(describing: error))") }
    XCTAssertEqual(warnings.lines, ["error in __gc (gc.lua:1: interrupted!)"])
  }

  func testALoopingFinalizerCannotHangClose() throws {
    for limit in [nil, 2_000_000] as [Int?] {
      let warnings = Warnings()
      let state = try LuaState(options: LuaOptions(instructionLimit: limit, warningHandler: { warnings.lines.append($0) }))
      try state.execute("""
        for i = 1, 3 do
          setmetatable({}, {__gc = function()
            while true do pcall(function() while true do end end) end
          end})
        end
        """, name: "@close.lua")
      let started = Date()
      state.close()
      XCTAssertLessThan(Date().timeIntervalSince(started), 20)
      guard case .instructionLimit(let location)? = state.finalizerFailure else {
        return XCTFail("\(String(describing: state.finalizerFailure))")
      }
      XCTAssertEqual(location, "close.lua:3")
      XCTAssertEqual(warnings.lines.count, 3, "each finalizer stopped is a warning")
    }
  }

  func testOrdinaryFinalizersStillWork() throws {
    let warnings = Warnings()
    let state = try LuaState(options: LuaOptions(instructionLimit: 1_000_000, warningHandler: { warnings.lines.append($0) }))
    let result = try state.execute("""
      local seen = {}
      local object = setmetatable({name = 'x'}, {__gc = function(o) seen[#seen + 1] = o.name end})
      object = nil
      setmetatable({}, {__gc = function() error('boom') end})
      setmetatable({}, {__gc = function() coroutine.yield() end})
      collectgarbage()
      return seen[1]
      """, name: "@ok.lua")
    XCTAssertEqual(result, ["x"])
    XCTAssertEqual(Set(warnings.lines), ["error in __gc (ok.lua:4: boom)", "error in __gc (attempt to yield across a C-call boundary)"])
    state.close()
    XCTAssertNil(state.finalizerFailure)
  }
}
