import Lua
import XCTest

@testable import Relua

/// `LuaStream`: an asynchronous sequence as a Lua `for` loop inside a driven coroutine — its
/// elements, its end, a failing source raising where `pcall` catches it, and a `break` letting
/// the source go.
@MainActor
final class LuaStreamTests: XCTestCase {
  struct SourceFailed: Error, CustomStringConvertible {
    var description: String { "the source went away" }
  }

  private func install(elements: [Int64], failing: Bool, cancelled: @escaping @MainActor () -> Void) throws -> LuaState {
    let lua = try LuaState()
    let host = try ReluaHost.install(in: lua)
    try lua.setGlobal("numbers", .function(lua.function { _ in
      var remaining = elements
      return try LuaStream.iterate("numbers", host: host, next: {
        if remaining.isEmpty {
          if failing { throw SourceFailed() }
          return nil
        }
        return [.integer(remaining.removeFirst())]
      }, cancel: cancelled)
    }))
    return lua
  }

  func testElementsThenTheEnd() async throws {
    var cancels = 0
    let lua = try install(elements: [1, 2, 3], failing: false) { cancels += 1 }
    let chunk = try lua.load("local sum = 0 for n in numbers() do sum = sum + n end return sum", name: "=t")
    let results = try await LuaCoroutineDriver.run(chunk)
    XCTAssertEqual(results.first?.integerValue, 6)
    XCTAssertEqual(cancels, 1)  // the loop's to-be-closed value, closed at the end
  }

  func testAFailingSourceRaisesWhereTheLoopIsAndPcallCatchesIt() async throws {
    let lua = try install(elements: [1], failing: true) {}
    let chunk = try lua.load(
      """
      local seen = 0
      local ok, err = pcall(function()
        for n in numbers() do seen = seen + n end
      end)
      return ok, err, seen
      """, name: "=stream.lua")
    let results = try await LuaCoroutineDriver.run(chunk)
    XCTAssertEqual(results[0].boolValue, false)
    XCTAssertEqual(results[1].stringValue, "stream.lua:3: the source went away")
    XCTAssertEqual(results[2].integerValue, 1)
  }

  func testBreakLetsTheSourceGo() async throws {
    var cancels = 0
    let lua = try install(elements: [1, 2, 3], failing: false) { cancels += 1 }
    let chunk = try lua.load("for n in numbers() do if n == 2 then break end end return 0", name: "=t")
    _ = try await LuaCoroutineDriver.run(chunk)
    XCTAssertEqual(cancels, 1)
  }
}
