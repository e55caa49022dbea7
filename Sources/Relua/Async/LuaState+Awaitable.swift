import Lua

extension LuaState {
  /// A Lua function awaiting `body` inside coroutines run by this state's `LuaCoroutineDriver`
  /// (effects, test bodies). `name` is what the "is asynchronous" error calls it.
  @MainActor
  package func awaitable(
    name: String, _ body: @escaping @MainActor ([LuaValue]) async throws -> [LuaValue]
  ) throws -> LuaFunction {
    try LuaCoroutineDriver.of(self).awaitable(name: name, in: self, body)
  }
}
