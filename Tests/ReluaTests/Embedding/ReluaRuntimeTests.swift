import XCTest

@testable import Relua
@testable import ReluaTesting

/// The embedding API: a feature script loaded by a Swift program, a store driven from Swift,
/// its state and screens observed as asynchronous sequences, bad input refused with the state
/// unchanged, script tests run from Swift.
@MainActor
final class ReluaRuntimeTests: XCTestCase {
  static let counter = """
    local relua = require "relua"
    local Child = relua.feature "Child" { state = { n = 0 }, actions = { bump = {} },
      reduce = relua.on { bump = function(s) s.n = s.n + 1 end } }
    return relua.feature "Counter" {
      state = { count = 0, child = nil },
      actions = { add = "integer", open = {}, fail = {} },
      compose = { relua.presents("child", Child) },
      reduce = relua.on {
        add = function(s, n) s.count = s.count + n end,
        open = function(s) s.child = { n = 0 } end,
        fail = function(s) s.count = 99; error("no") end,
      },
    }
    """

  func testAStoreOfAScriptFeatureDrivenAndObservedFromSwift() async throws {
    let relua = try ReluaRuntime()
    let feature = try relua.loadFeature(source: Self.counter, name: "Counter.lua")
    XCTAssertEqual(feature.name, "Counter")
    let store = try relua.makeStore(feature)
    var states = store.states.makeAsyncIterator()
    let initial = await states.next()
    XCTAssertEqual(initial?[key: "count"], .integer(0))

    try store.send("add", 2)
    try store.send("add", 3)
    let afterFirst = await states.next()
    XCTAssertEqual(afterFirst?[key: "count"], .integer(2))
    let afterSecond = await states.next()
    XCTAssertEqual(afterSecond?[key: "count"], .integer(5))

    var screens = store.screenChanges.makeAsyncIterator()
    let before = await screens.next()
    XCTAssertEqual(before?.map(\.name), ["Counter"])
    try store.send("open")
    try store.send("child.bump")
    let opened = await screens.next()
    XCTAssertEqual(opened?.map(\.name), ["Counter", "Child"])
    XCTAssertEqual(opened?.last?.state[key: "n"], .integer(0))  // each change arrives, in order
    let bumped = await screens.next()
    XCTAssertEqual(bumped?.last?.state[key: "n"], .integer(1))
  }

  func testBadActionsAndRaisingReducersThrowWithTheStateUnchanged() async throws {
    let relua = try ReluaRuntime()
    let store = try relua.makeStore(try relua.loadFeature(source: Self.counter, name: "Counter.lua"))
    try store.send("add", 1)
    XCTAssertThrowsError(try store.send("add", "two")) { error in
      XCTAssertTrue("\(error)".contains("expected integer"), "\(error)")
    }
    XCTAssertThrowsError(try store.send("nope")) { error in
      XCTAssertTrue("\(error)".contains("nope"), "\(error)")
    }
    XCTAssertThrowsError(try store.send("fail")) { error in
      XCTAssertTrue("\(error)".contains("Counter.lua:"), "names the script line: \(error)")
    }
    XCTAssertEqual(store.state[key: "count"], .integer(1))
  }

  func testAScriptThatIsNotAFeatureSaysSo() async throws {
    let relua = try ReluaRuntime()
    XCTAssertThrowsError(try relua.loadFeature(source: "return 42", name: "x.lua")) { error in
      XCTAssertTrue("\(error)".contains("x.lua"), "\(error)")
    }
    XCTAssertThrowsError(try relua.loadFeature(source: "return", name: "empty.lua")) { error in
      XCTAssertTrue("\(error)".contains("returned nothing"), "\(error)")
    }
  }

  func testScriptsAreSandboxedWithLimitsByDefault() async throws {
    let relua = try ReluaRuntime()
    XCTAssertThrowsError(try relua.lua.execute("return io.open('/etc/passwd')", name: "=probe"))
    XCTAssertThrowsError(try relua.lua.execute("while true do end", name: "=spin")) { error in
      XCTAssertTrue("\(error)".contains("instruction"), "\(error)")
    }
  }

  func testScriptTestsRunFromSwift() async throws {
    let directory = try LuaTestDirectory()
    try directory.write("sum_test.lua", """
      test("adds", function() expect(1 + 1).to_be(2) end)
      test("fails", function() expect(1 + 1).to_be(3) end)
      """)
    let summary = await ReluaRuntime.runTests(paths: [directory.path])
    XCTAssertEqual([summary.passed, summary.failed], [1, 1])
  }
}
