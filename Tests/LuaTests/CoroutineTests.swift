import XCTest

@testable import Lua

final class CoroutineTests: XCTestCase {
  func testResumeYieldFinish() throws {
    let state = try LuaState()
    let body = try state.execute("return function(a, b) local c = coroutine.yield(a + b) return c * 2, 'done' end")[0].functionValue!
    let thread = try state.thread(body)
    try assertBalanced(state) {
      XCTAssertEqual(try thread.status, .suspended)
      XCTAssertEqual(try thread.resume(1, 2), .yielded([3]))
      XCTAssertEqual(try thread.status, .suspended)
      XCTAssertEqual(try thread.resume(10), .finished([20, "done"]))
      XCTAssertEqual(try thread.status, .dead)
      XCTAssertNotNil(assertLuaError { try thread.resume() })
    }
  }

  func testErrorInsideCoroutineHasTraceback() throws {
    let state = try LuaState()
    let thread = try state.thread(try state.load("coroutine.yield() error('inside')", name: "@co.lua"))
    _ = try thread.resume()
    guard case .runtime(let message, let traceback)? = assertLuaError({ try thread.resume() }) else { return XCTFail() }
    XCTAssertEqual(message, "co.lua:1: inside")
    XCTAssertTrue(traceback?.contains("co.lua:1:") ?? false, traceback ?? "")
    XCTAssertEqual(try thread.status, .dead)
    XCTAssertNoThrow(try thread.close())
  }

  func testClosingSuspendedCoroutineRunsCloseHandlers() throws {
    let state = try LuaState()
    try state.execute("closed = {}")
    let thread = try state.thread(try state.load("""
      local a <close> = setmetatable({}, { __close = function() table.insert(closed, 'a') end })
      do
        local b <close> = setmetatable({}, { __close = function() table.insert(closed, 'b') end })
        coroutine.yield('waiting')
      end
      """))
    XCTAssertEqual(try thread.resume(), .yielded(["waiting"]))
    try assertBalanced(state) { try thread.close() }
    XCTAssertEqual(try state.execute("return table.concat(closed, ',')"), ["b,a"])
    XCTAssertEqual(try thread.status, .dead)
  }

  func testCloseHandlerErrorIsReported() throws {
    let state = try LuaState()
    let thread = try state.thread(try state.load("""
      local a <close> = setmetatable({}, { __close = function() error('close failed') end })
      coroutine.yield()
      """, name: "@c.lua"))
    _ = try thread.resume()
    guard case .runtime(let message, _)? = assertLuaError({ try thread.close() }) else { return XCTFail() }
    XCTAssertTrue(message.contains("close failed"), message)
  }

  func testSwiftFunctionYieldsThroughTrampoline() throws {
    let state = try LuaState()
    // An "effect" asks Swift for work: the Swift function yields the request, Swift resumes with the answer.
    try state.registerRaw("fetch") { stack in
      stack.push("request:" + (try stack.string(at: 1)))
      return .yield(1)
    }
    let thread = try state.thread(try state.load("local answer = fetch('user') return 'got ' .. answer"))
    XCTAssertEqual(try thread.resume(), .yielded(["request:user"]))
    XCTAssertEqual(try thread.resume("alice"), .finished(["got alice"]))
    // Yielding outside a coroutine is a clean error.
    guard case .runtime(let message, _)? = assertLuaError({ try state.execute("fetch('x')") }) else { return XCTFail() }
    XCTAssertTrue(message.contains("outside a coroutine"), message)
    // And from a Lua coroutine resumed by Lua.
    XCTAssertEqual(
      try state.execute("local co = coroutine.wrap(function() return fetch('a') end) local req = co() return req, co('b')"),
      ["request:a", "b"])
  }

  func testSwiftErrorInsideCoroutine() throws {
    let state = try LuaState()
    try state.register("fail") { _ in throw TestError(code: 3) }
    let thread = try state.thread(try state.load("fail()", name: "=co"))
    guard case .callback(let error, let location, _)? = assertLuaError({ try thread.resume() }) else { return XCTFail() }
    XCTAssertEqual(error as? TestError, TestError(code: 3))
    XCTAssertEqual(location, "co:1")
  }

  func testNestedSwiftCallsInsideCoroutine() throws {
    let state = try LuaState()
    try state.register("twice") { args in
      let f = try args.function(at: 1)
      return [.integer(Int64(try f.call(2)[0].as(Int.self) * 2))]
    }
    let thread = try state.thread(try state.load("coroutine.yield(twice(function(x) return x + 1 end)) return twice(function(x) return x end)"))
    XCTAssertEqual(try thread.resume(), .yielded([6]))
    XCTAssertEqual(try thread.resume(), .finished([4]))
  }
}
