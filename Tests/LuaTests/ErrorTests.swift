import XCTest

@testable import Lua

final class ErrorTests: XCTestCase {
  func testSyntaxErrorsKnowIncompleteInput() throws {
    let state = try LuaState()
    assertBalanced(state) {
      guard case .syntax(let message, let incomplete)? = assertLuaError({ try state.load("for i=1,2 do", name: "=stdin") }) else {
        return XCTFail()
      }
      XCTAssertTrue(incomplete, message)
      XCTAssertTrue(message.hasPrefix("stdin:1:"), message)
      guard case .syntax(_, let incomplete2)? = assertLuaError({ try state.load("x = = 1") }) else { return XCTFail() }
      XCTAssertFalse(incomplete2)
    }
  }

  func testRuntimeErrorHasPositionAndTraceback() throws {
    let state = try LuaState()
    let source = """
      local function inner()
        error("boom")
      end
      inner()
      """
    try assertBalanced(state) {
      guard case .runtime(let message, let traceback)? = assertLuaError({ try state.execute(source, name: "@scripts/feature.lua") }) else {
        return XCTFail()
      }
      XCTAssertEqual(message, "scripts/feature.lua:2: boom")
      let text = try XCTUnwrap(traceback)
      XCTAssertTrue(text.contains("stack traceback:"), text)
      XCTAssertTrue(text.contains("scripts/feature.lua:2: in "), text)
      XCTAssertTrue(text.contains("scripts/feature.lua:4:"), text)
      XCTAssertTrue(LuaError.runtime(message: message, traceback: traceback).description.contains("boom"))
    }
    guard case .runtime(let message, _)? = assertLuaError({ try state.execute("local x = nil; return x.y", name: "probe") }) else {
      return XCTFail()
    }
    XCTAssertTrue(message.hasPrefix("probe:1: attempt to index a nil value"), message)
    guard case .runtime(let tableMessage, _)? = assertLuaError({ try state.execute("error({code = 1})") }) else { return XCTFail() }
    XCTAssertTrue(tableMessage.hasPrefix("table: "), tableMessage)
  }

  func testSwiftErrorComesBackUnchanged() throws {
    let state = try LuaState()
    try state.register("fail") { _ in throw TestError(code: 7) }
    try assertBalanced(state) {
      // The same Swift error, with the script line that called the function and Lua's traceback.
      guard case .callback(let error, let location, let traceback)? = assertLuaError({
        try state.execute("local function f()\n  fail()\nend\nf()", name: "=probe")
      }) else {
        return XCTFail()
      }
      XCTAssertEqual(error as? TestError, TestError(code: 7))
      XCTAssertEqual(location, "probe:2")
      XCTAssertTrue(traceback?.contains("probe:4: in main chunk") == true, traceback ?? "no traceback")
      XCTAssertEqual(
        LuaError.callback(TestError(code: 7), location: location).message, "probe:2: test error 7")
      // Inside Lua, pcall sees an error object whose tostring is the message, placed as Lua's are.
      XCTAssertEqual(
        try state.execute("local ok, e = pcall(function() fail() end) return ok, tostring(e), type(e)", name: "=p"),
        [false, "p:1: test error 7", "userdata"])
      // Called by pcall itself (a C function), it is placed at the line that called pcall.
      XCTAssertEqual(
        try state.execute("local ok, e = pcall(fail) return tostring(e)", name: "=direct"), ["direct:1: test error 7"])
      // Rethrown from Lua, it is still the same Swift error, from where it was first raised.
      guard case .callback(let again, let firstPlace, _)? = assertLuaError({
        try state.execute("local ok, e = pcall(function() fail() end)\nerror(e)", name: "=again")
      }) else {
        return XCTFail()
      }
      XCTAssertEqual(again as? TestError, TestError(code: 7))
      XCTAssertEqual(firstPlace, "again:1")
    }
  }

  /// A Swift function called from the host's own Lua chunks (named `=[…]`) reports the script
  /// line that called into them, as `luaL_error` would from the script's point of view.
  func testSwiftErrorIsPlacedInTheScriptNotInHostChunks() throws {
    let state = try LuaState()
    try state.register("fail") { _ in throw TestError(code: 9) }
    let helper = try state.execute("return function() fail() end", name: "=[host]")[0]
    try state.setGlobal("helper", helper)
    guard case .callback(_, let location, _)? = assertLuaError({
      try state.execute("local x = 1\nhelper()", name: "=script")
    }) else {
      return XCTFail()
    }
    XCTAssertEqual(location, "script:2")
  }

  /// A Swift error whose text starts with a place already (Lua code's error, wrapped by the
  /// function that ran it) keeps that place: it gets no second one.
  func testSwiftErrorThatNamesAPlaceKeepsIt() throws {
    struct Wrapped: Error, CustomStringConvertible { var description: String { "handler.lua:3: boom (in X)" } }
    let state = try LuaState()
    try state.register("fail") { _ in throw Wrapped() }
    XCTAssertEqual(
      try state.execute("local ok, e = pcall(function() fail() end) return tostring(e)", name: "=s"),
      ["handler.lua:3: boom (in X)"])
    guard case .callback(_, let location, _)? = assertLuaError({ try state.execute("fail()") }) else { return XCTFail() }
    XCTAssertNil(location)
    // Nor when a Swift function that ran Lua code throws it on, out of a second call.
    try state.register("outer") { [unowned state] _ in try state.execute("fail()") }  // unowned: no cycle through the state
    XCTAssertEqual(
      try state.execute("local ok, e = pcall(function() outer() end) return tostring(e)", name: "=o"),
      ["handler.lua:3: boom (in X)"])
  }

  func testArgumentErrorsReadLikeLua() throws {
    let state = try LuaState()
    try state.register("foo") { args in [.integer(Int64(try args.int(at: 1) + Int(try args.double(at: 2))))] }
    XCTAssertEqual(try state.execute("return foo(1, 2.5)"), [3])
    guard case .runtime(let message, _)? = assertLuaError({ try state.execute("foo(1, 'x')", name: "t") }) else { return XCTFail() }
    XCTAssertEqual(message, "t:1: bad argument #2 to 'foo' (number expected, got string)")
    guard case .runtime(let message2, _)? = assertLuaError({ try state.execute("foo(1.5, 2)", name: "t") }) else { return XCTFail() }
    XCTAssertEqual(message2, "t:1: bad argument #1 to 'foo' (number has no integer representation)")
    guard case .runtime(let message3, _)? = assertLuaError({ try state.execute("foo()", name: "t") }) else { return XCTFail() }
    XCTAssertEqual(message3, "t:1: bad argument #1 to 'foo' (number expected, got no value)")
  }

  func testManySwiftErrorsThroughPcallLeakNothing() throws {
    let state = try LuaState()
    try state.register("fail") { args in throw TestError(code: try args.int(at: 1)) }
    let loop = try state.load("""
      local caught = 0
      for i = 1, 100000 do
        local ok, e = pcall(fail, i)
        if not ok then caught = caught + 1 end
      end
      return caught
      """)
    state.collectGarbage()
    let objects = state.liveSwiftObjects
    let references = state.liveReferences
    try assertBalanced(state) {
      XCTAssertEqual(try loop.call(), [100000])
    }
    // The string table keeps its grown size for a few cycles (it halves per cycle): settle first,
    // then a second round must not grow memory at all.
    for _ in 0..<10 { state.collectGarbage() }
    XCTAssertEqual(state.liveSwiftObjects, objects)
    XCTAssertEqual(state.liveReferences, references)
    let settled = state.memoryUsed
    XCTAssertEqual(try loop.call(), [100000])
    for _ in 0..<10 { state.collectGarbage() }
    XCTAssertEqual(state.liveSwiftObjects, objects)
    XCTAssertLessThanOrEqual(state.memoryUsed, settled + 4096)
    XCTAssertEqual(try state.execute("return 1 + 1"), [2])
  }

  func testErrorDescriptionsAreReadable() {
    XCTAssertEqual(LuaError.instructionLimit(location: nil).description, "instruction budget exhausted")
    XCTAssertEqual(
      LuaError.instructionLimit(location: "spin.lua:3").description, "spin.lua:3: instruction budget exhausted")
    XCTAssertEqual(LuaError.interrupted(location: nil).description, "interrupted!")
    XCTAssertEqual(LuaError.callback(TestError(code: 1)).description, "test error 1")
    XCTAssertEqual(
      LuaError.callback(TestError(code: 1), location: "a.lua:3", traceback: "stack traceback:\n\ta.lua:3: in main chunk").description,
      "a.lua:3: test error 1\nstack traceback:\n\ta.lua:3: in main chunk")
    XCTAssertEqual(LuaError.syntax(message: "x:1: oops", incompleteInput: false).description, "syntax error: x:1: oops")
  }
}
