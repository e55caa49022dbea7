import CLua
import XCTest

@testable import Lua

/// A state without a memory limit is bounded all the same, by a ceiling derived from what the
/// process may still allocate (CLuaShim.h: relua_memory_ceiling), so running out of memory is a
/// Lua error, never a failed allocation outside a protected call or in Swift.
final class MemoryCeilingTests: XCTestCase {
  func testAStateWithoutALimitHasACeiling() throws {
    let state = try LuaState()
    XCTAssertNil(state.memoryLimit)
    let ceiling = try XCTUnwrap(state.memoryCeiling, "bounded by physical memory at least")
    XCTAssertGreaterThanOrEqual(ceiling, 16 << 20)
  }

  func testPastTheCeilingLuaCodeGetsAMemoryErrorAndSwiftDoesNot() throws {
    let state = try LuaState()
    state.control!.pointee.memory_ceiling = 32 << 20
    for source in [
      "local t = {} for i = 1, 1e9 do t[i] = coroutine.create(function() end) end",
      "local s = 'x' while true do s = s .. s end",
      "local t = {} for i = 1, 1e9 do t[i] = i end",
    ] {
      guard case .memory(let message)? = assertLuaError({ try state.execute(source) }) else { return XCTFail(source) }
      XCTAssertEqual(message, "not enough memory", "no limit was set: not 'memory limit of 0 bytes'")
      XCTAssertEqual(try state.execute("return 1 + 1"), [2], "usable afterwards")
    }
    // Swift's own allocations are never refused (soft mode): a 40 MB string pushed from Swift.
    let big = String(repeating: "y", count: 40 << 20)
    XCTAssertNoThrow(try state.setGlobal("big", .text(big)))
    // A limit set explicitly replaces the ceiling.
    state.memoryLimit = 256 << 20
    XCTAssertEqual(try state.execute("return #(big .. 'z')"), [.integer(Int64((40 << 20) + 1))])
  }
}
