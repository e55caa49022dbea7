import CLua
import XCTest

@testable import Lua

final class LifecycleTests: XCTestCase {
  func testReferenceUsedAfterCloseThrows() throws {
    let state = try LuaState()
    let table = try XCTUnwrap(try state.execute("return { 1 }").first?.tableValue)
    let function = try state.load("return 1")
    let thread = try state.thread(function)
    state.close()
    state.close()  // idempotent
    XCTAssertTrue(state.isClosed)
    XCTAssertFalse(table.isValid)
    guard case .closed? = assertLuaError({ try table[1] }) else { return XCTFail() }
    guard case .closed? = assertLuaError({ try function.call() }) else { return XCTFail() }
    guard case .closed? = assertLuaError({ try thread.resume() }) else { return XCTFail() }
    guard case .closed? = assertLuaError({ try state.execute("return 1") }) else { return XCTFail() }
    XCTAssertEqual(LuaError.closed.description, "the Lua state is closed")
  }

  func testReferencesOutliveTheirStateObject() throws {
    var table: LuaTable?
    do {
      let state = try LuaState()
      table = try state.execute("return {}").first?.tableValue
    }
    // The state object is gone (deinit closed it); the reference must not crash.
    guard case .closed? = assertLuaError({ try table!.rawLength }) else { return XCTFail() }
    table = nil
  }

  func testMillionDroppedReferencesReturnRegistryToBaseline() throws {
    let state = try LuaState()
    let make = try state.load("return {}")
    let baseline = state.liveReferences
    func registryLength() -> UInt64 {
      (try? state.withRawState { L in lua_rawlen(L, luaRegistryIndex) }) ?? 0
    }
    try assertBalanced(state) {
      for _ in 0..<1_000_000 {
        _ = try make.call()
      }
    }
    XCTAssertEqual(state.liveReferences, baseline)
    let length = registryLength()
    for _ in 0..<1000 { _ = try make.call() }
    XCTAssertEqual(registryLength(), length, "freed registry slots are reused")
    state.collectGarbage()
    XCTAssertEqual(try state.execute("return 'alive'"), ["alive"])
  }

  func testClosuresAreReleasedWhenCollected() throws {
    let state = try LuaState()
    let baseline = state.liveSwiftObjects
    final class Captured { nonisolated(unsafe) static var alive = 0; init() { Self.alive += 1 }; deinit { Self.alive -= 1 } }
    do {
      let captured = Captured()
      let function = try state.function { _ in _ = captured; return [1] }
      XCTAssertEqual(try function.call(), [1])
    }
    XCTAssertEqual(state.liveSwiftObjects, baseline + 1)
    XCTAssertEqual(Captured.alive, 1)
    state.collectGarbage()
    XCTAssertEqual(state.liveSwiftObjects, baseline)
    XCTAssertEqual(Captured.alive, 0)
    // A closure still referenced by Lua lives until close.
    try state.register("keep") { _ in _ = Captured(); return [] }
    state.close()
    XCTAssertEqual(state.liveSwiftObjects, 0)
  }

  /// The state's first `hotCFunction` is called without its upvalue (the control block holds it);
  /// a second one is ordinary, so each keeps calling its own context; once released, the hot one
  /// raises like any released Swift function, even when a finalizer calls it after its release.
  func testHotFunctionKeepsItsContextAndRaisesOnceReleased() throws {
    final class Counter { var count = 0 }
    let count: LuaCFunction = { L, context in
      let counter = Unmanaged<Counter>.fromOpaque(context!).takeUnretainedValue()
      counter.count += 1
      lua_pushinteger(L, lua_Integer(counter.count))
      return 1
    }
    let state = try LuaState()
    let baseline = state.liveSwiftObjects
    // A holder marked for finalization before the hot function's box: finalizers run in reverse
    // order, so the box is released first and the holder's finalizer then calls the function.
    let hot = Counter(), ordinary = Counter()
    do {
      let slot = try XCTUnwrap(try state.execute("""
        local slot = {}
        holder = setmetatable({}, { __gc = function() calledAfterRelease = { pcall(slot.f) } end })
        return slot
        """).first?.tableValue)
      let first = try state.hotCFunction(count, context: hot)
      let second = try state.hotCFunction(count, context: ordinary)
      XCTAssertEqual(try first.call(), [1])
      XCTAssertEqual(try second.call(), [1])
      XCTAssertEqual(try first.call(), [2])
      XCTAssertEqual(hot.count, 2)
      XCTAssertEqual(ordinary.count, 1)
      try slot.rawSet("f", .function(first))
    }
    XCTAssertEqual(state.liveSwiftObjects, baseline + 2)
    try state.execute("holder = nil")
    state.collectGarbage()
    state.collectGarbage()
    XCTAssertEqual(try state.execute("return table.unpack(calledAfterRelease)"), [false, "attempt to call a released Swift function"])
    XCTAssertEqual(state.liveSwiftObjects, baseline)
    XCTAssertEqual(hot.count, 2)
  }

  func testStackIsBalancedAcrossTheAPI() throws {
    var warnings: [String] = []
    let state = try LuaState(options: LuaOptions(warningHandler: { warnings.append($0) }))
    final class Store { var count = 0 }
    let store = Store()
    try assertBalanced(state) {
      let type = try state.register(type: Store.self, name: "Store", methods: ["count": { store, _ in [.integer(Int64(store.count))] }])
      _ = type
      let userdata = try state.userdata(store)
      try state.setGlobal("store", .userdata(userdata))
      XCTAssertEqual(try state.execute("return store:count()"), [0])
      XCTAssertTrue(try userdata.object(as: Store.self) === store)
      let f = try state.load("return ...")
      _ = try f.call(1, "a", 2.5, .nil)
      _ = try state.call(f, pushing: [[1, 2], ["k": "v"]])
      _ = assertLuaError { try state.execute("error('x')") }
      _ = assertLuaError { try state.load("x = = 1") }
      let t = try state.table(array: [1, 2, 3])
      _ = try t.pairs(); _ = try t.array(); _ = try t.length(); try t.append(4); _ = try t.metatable
      try t.set("a", 1); _ = try t.get("a"); try t.rawSet("b", 2); _ = try t.rawGet("b")
      _ = try state.globals["print"]
      _ = try state.value([1, 2, 3])
      let co = try state.thread(try state.load("coroutine.yield(1) return 2"))
      _ = try co.resume(); _ = try co.status; _ = try co.resume(); try co.close()
      _ = try state.function { _ in [] }
      state.collectGarbage()
      _ = state.memoryUsed
      _ = LuaValue.table(t).description
      XCTAssertEqual(LuaValue.table(t), LuaValue.table(t))
    }
  }

  func testFinalizerErrorReachesWarningHandler() throws {
    var warnings: [String] = []
    let state = try LuaState(options: LuaOptions(warningHandler: { warnings.append($0) }))
    try state.execute("setmetatable({}, { __gc = function() error('finalizer boom') end }) collectgarbage()")
    state.collectGarbage()
    XCTAssertEqual(warnings.count, 1, "\(warnings)")
    XCTAssertTrue(warnings.first?.contains("finalizer boom") ?? false, "\(warnings)")
    try state.execute("warn('hello ', 'world')")
    XCTAssertEqual(warnings.last, "hello world")
  }
}
