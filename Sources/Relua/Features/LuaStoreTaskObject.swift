import Composable
import Lua

/// What `store:send` of a `relua.Store` returns (TCA's `StoreTask`): the effects that send started.
/// `task:cancel()` stops them (their actions never arrive), `task:finish([seconds])` waits until
/// they have finished (async; with seconds, at most that long, returning whether they did),
/// `task:isCancelled()`. A send that started no effect returns one shared handle (see
/// `ReluaHost.noEffectsTask`): the send path allocates nothing for it.
@MainActor
final class LuaStoreTaskObject {
  let task: StoreTask

  init(_ task: StoreTask) { self.task = task }

  static func register(in host: ReluaHost) throws -> LuaUserdataType<LuaStoreTaskObject> {
    let lua = host.lua
    let type = try lua.register(
      type: LuaStoreTaskObject.self, name: "StoreTask",
      methods: [
        "cancel": { object, _ in
          object.task.cancel()
          return []
        },
        "isCancelled": { object, _ in [.boolean(object.task.isCancelled)] },
        // What the REPL prints after `store:send(…)`.
        "__tostring": { object, _ in
          let task = object.task
          let what =
            !task.startedEffects ? "no effects" : task.isCancelled ? "cancelled" : task.isFinished ? "finished" : "running"
          return [.text("StoreTask (\(what))")]
        },
      ])
    try type.methods.rawSet(.text("finish"), .function(host.driver.awaitable(name: "task:finish", in: lua) { arguments in
      guard let object = try arguments.first?.userdataValue?.object(as: LuaStoreTaskObject.self) else {
        throw LuaError.argument(position: 1, message: "StoreTask expected (call it as task:finish())")
      }
      guard let seconds = try Duration.luaSecondsArgument(arguments.dropFirst().first) else {
        await object.task.finish()
        return []
      }
      return [.boolean(await object.task.finish(timeout: seconds))]
    }))
    return type
  }
}
