import Composable
import Lua

/// What `store:send` of a `relua.TestStore` returns (TCA's `TestStoreTask`): the effects that send
/// started. `task:cancel()` stops them (their actions never arrive; async, as store methods are),
/// `task:finish([seconds])` waits for them and fails the test at the script's line when one is
/// still running after `seconds` (the store's 1 s by default), `task:isCancelled()`.
@MainActor
final class LuaTestStoreTaskObject {
  let store: LuaTestStoreObject
  let task: TestStoreTask

  init(store: LuaTestStoreObject, task: TestStoreTask) {
    self.store = store
    self.task = task
  }

  static func register(in host: ReluaHost) throws {
    let lua = host.lua
    let type = try lua.register(
      type: LuaTestStoreTaskObject.self, name: "TestStoreTask",
      methods: ["isCancelled": { object, _ in [.boolean(object.task.isCancelled)] }])
    func awaitable(_ name: String, _ body: @escaping @MainActor (LuaTestStoreTaskObject, ArraySlice<LuaValue>) async throws -> Void) throws {
      try type.methods.rawSet(.text(name), .function(host.driver.awaitable(name: "task:\(name)", in: lua) { arguments in
        guard let object = try arguments.first?.userdataValue?.object(as: LuaTestStoreTaskObject.self) else {
          throw LuaError.argument(position: 1, message: "TestStoreTask expected (call it as task:\(name)(…))")
        }
        try await body(object, arguments.dropFirst())
        return []
      }))
    }
    try awaitable("cancel") { object, _ in await object.task.cancel() }
    try awaitable("finish") { object, arguments in
      let timeout = try Duration.luaSecondsArgument(arguments.first)
      try await object.store.perform {
        await object.task.finish(timeout: timeout, at: object.store.testStore.currentLocationForLua)
      }
    }
  }
}
