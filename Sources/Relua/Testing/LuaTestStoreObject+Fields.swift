import Composable
import Lua

/// What a Lua test store adds to TCA's steps beside sends and receives: `store:assert(fn)` (the
/// state without an action), `store:exhaustivity()` and `store:withExhaustivity(mode, fn)` (a
/// block's exhaustivity, in test_store.lua), and its fields (`store.isDismissed`).
extension LuaTestStoreObject {
  /// Sources/Relua/Lua/test_store.lua, read once per process.
  private static let luaSource = ReluaLuaSource.text("test_store.lua")

  /// `store:assert(function(state) … end)` (TCA's `store.assert { $0.x = … }`): the state now,
  /// without an action, exhaustively (every change since the last step stated), with the usual diff.
  func assertState(_ arguments: ArraySlice<LuaValue>) async throws {
    guard arguments.count == 1, case .function(let function) = arguments.first! else {
      throw LuaError.argument(position: 2, message: "expected a function(state) that makes the state asserted last into the one expected now")
    }
    let update = expectation(function)!
    try await perform { testStore.assert(update, at: testStore.currentLocationForLua) }
  }

  static func registerStateAssertionsAndFields(_ type: LuaUserdataType<LuaTestStoreObject>, in host: ReluaHost) throws {
    let lua = host.lua
    try type.methods.rawSet(.text("assert"), .function(host.driver.awaitable(name: "store:assert", in: lua) { arguments, caller in
      guard let store = try arguments.first?.userdataValue?.object(as: LuaTestStoreObject.self) else {
        throw LuaError.argument(position: 1, message: "TestStore expected (call it as store:assert(function(state) … end))")
      }
      store.callerLocation = caller
      try await store.assertState(arguments.dropFirst())
      return []
    }))
    // store:exhaustivity(): "on" or "off", and whether skipped assertions are shown.
    try type.methods.rawSet(.text("exhaustivity"), .function(lua.function { stack in
      guard let store = try stack.value(at: 1).userdataValue?.object(as: LuaTestStoreObject.self) else {
        throw LuaError.argument(position: 1, message: "TestStore expected (call it as store:exhaustivity())")
      }
      switch store.testStore.exhaustivity {
      case .on: return ["on", .boolean(false)]
      case .off(let showSkipped): return ["off", .boolean(showSkipped)]
      }
    }))
    let isDismissed = try lua.function { stack in
      [.boolean(try stack.value(at: 1).userdataValue?.object(as: LuaTestStoreObject.self)?.testStore.isDismissed ?? false)]
    }
    let chunk = try lua.load(luaSource, name: "=[relua test store]")
    guard let index = try lua.call(chunk, .table(type.methods), .function(isDismissed)).first, case .function = index else {
      throw ReluaError.usage("test_store.lua must return the stores' __index")
    }
    try type.metatable.rawSet("__index", index)
  }
}
