import CLua
import CLuaShim
import XCTest

@testable import Lua

final class UserdataTests: XCTestCase {
  final class Store {
    var count = 0
  }

  func makeState() throws -> (LuaState, LuaUserdataType<Store>) {
    let state = try LuaState()
    let type = try state.register(
      type: Store.self, name: "Store",
      methods: [
        "send": { store, args in
          let action = try args.string(at: 2)
          if action == "increment" { store.count += 1 }
          return [.integer(Int64(store.count))]
        },
        "__tostring": { store, _ in [.text("Store(\(store.count))")] },
      ])
    return (state, type)
  }

  /// A hot function's receiver check remembers the last object it accepted; it still checks that
  /// object's type, and forgets it once the object is collected (its memory may then hold another).
  func testCheckedReceiverKeepsItsTypeCheckAndIsForgottenWhenCollected() throws {
    final class Other {}
    let (state, storeType) = try makeState()
    let otherType = try state.register(type: Other.self, name: "Other")
    let store = Store()
    try state.withRawState { L in
      let control = relua_getcontrol(L)!
      storeType.push(store, onto: L)
      otherType.push(Other(), onto: L)
      XCTAssertNil(storeType.unmanagedReceiver(at: -1, in: L))
      XCTAssertNil(control.pointee.checked_object)
      XCTAssertTrue(storeType.unmanagedReceiver(at: -2, in: L)?.takeUnretainedValue() === store)
      XCTAssertEqual(control.pointee.checked_object, lua_touserdata(L, -2))
      XCTAssertTrue(storeType.unmanagedReceiver(at: -2, in: L)?.takeUnretainedValue() === store)
      XCTAssertNil(otherType.unmanagedReceiver(at: -2, in: L), "remembered, but of another type")
      XCTAssertNotNil(otherType.unmanagedReceiver(at: -1, in: L))
      XCTAssertEqual(control.pointee.checked_object, lua_touserdata(L, -1))
      lua_settop(L, -2)  // the Other object is unreachable now
    }
    state.collectGarbage()
    state.collectGarbage()
    try state.withRawState { L in
      XCTAssertNil(relua_getcontrol(L)!.pointee.checked_object)
      XCTAssertTrue(storeType.unmanagedReceiver(at: -1, in: L)?.takeUnretainedValue() === store)
      lua_settop(L, -2)
    }
  }

  func testMethodsAndMetatableLock() throws {
    let (state, _) = try makeState()
    let store = Store()
    try state.setGlobal("store", .userdata(try state.userdata(store)))
    XCTAssertEqual(try state.execute("store:send('increment') return store:send('increment')"), [2])
    XCTAssertEqual(store.count, 2)
    XCTAssertEqual(try state.execute("return tostring(store), getmetatable(store)"), ["Store(2)", "Store"])
    XCTAssertNotNil(assertLuaError { try state.execute("setmetatable(store, {})") })
  }

  func testSelfIsTypeChecked() throws {
    let (state, _) = try makeState()
    try state.setGlobal("store", .userdata(try state.userdata(Store())))
    guard case .runtime(let message, _)? = assertLuaError({
      try state.execute("local send = store.send send({}, 'increment')", name: "t")
    }) else { return XCTFail() }
    XCTAssertEqual(message, "t:1: bad argument #1 to 'send' (Store expected, got table)")
    guard case .runtime(let other, _)? = assertLuaError({
      try state.execute("local send = store.send send(io or 5, 'x')", name: "t")
    }) else { return XCTFail() }
    XCTAssertEqual(other, "t:1: bad argument #1 to 'send' (Store expected, got number)")
    guard case .runtime(let argument, _)? = assertLuaError({ try state.execute("store:send(1)", name: "t") }) else {
      return XCTFail()
    }
    XCTAssertEqual(argument, "t:1: bad argument #1 to 'send' (string expected, got number)")
  }

  func testObjectReleasedExactlyOnce() throws {
    let state = try LuaState()
    try state.register(type: Probe.self, name: "Probe")
    let before = Probe.deinits
    let baseline = state.liveSwiftObjects
    try state.setGlobal("p", .userdata(try state.userdata(Probe(id: 1))))
    try state.execute("q = p")
    XCTAssertEqual(state.liveSwiftObjects, baseline + 1)
    try state.execute("p = nil")
    state.collectGarbage()
    XCTAssertEqual(Probe.deinits, before, "still referenced by q")
    try state.execute("q = nil")
    state.collectGarbage()
    state.collectGarbage()
    XCTAssertEqual(Probe.deinits, before + 1)
    XCTAssertEqual(state.liveSwiftObjects, baseline)
    // Objects alive at close are released by close, once.
    try state.setGlobal("r", .userdata(try state.userdata(Probe(id: 2))))
    state.close()
    XCTAssertEqual(Probe.deinits, before + 2)
  }

  func testRawFunctionFastPath() throws {
    let state = try LuaState()
    try state.registerRaw("add") { stack in
      stack.push(try stack.int(at: 1) + stack.int(at: 2))
      return .values(1)
    }
    XCTAssertEqual(try state.execute("local s = 0 for i = 1, 1000 do s = add(s, i) end return s"), [500500])
    try state.register(type: Store.self, name: "Store", rawMethods: [
      "send": { store, stack in
        try stack.withBytes(at: 2) { action in
          if action.elementsEqual("increment".utf8) { store.count += 1 }
        }
        stack.push(store.count)
        return .values(1)
      },
    ])
    let store = Store()
    try state.setGlobal("store", .userdata(try state.userdata(store)))
    let baseline = state.liveSwiftObjects
    XCTAssertEqual(try state.execute("local n for i = 1, 10000 do n = store:send('increment') end return n"), [10000])
    XCTAssertEqual(store.count, 10000)
    XCTAssertEqual(state.liveSwiftObjects, baseline)
    guard case .runtime(let message, _)? = assertLuaError({ try state.execute("local f = store.send f(1, 'x')", name: "t") }) else {
      return XCTFail()
    }
    XCTAssertEqual(message, "t:1: bad argument #1 to 'f' (Store expected, got number)")
  }
}
