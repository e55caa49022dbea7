import Lua

/// An asynchronous sequence as Lua iterates it, inside an effect (or a test body):
///
///     for tick in deps.clock.timer(1) do send("tick") end
///     for value in deps.notifications("saved") do … end
///
/// `iterate` gives the four values of a generic `for`: the iterator (an awaitable: each call
/// suspends the coroutine until `next` has the next element, or ends the loop with nil), two nils,
/// and a to-be-closed value whose `__close` calls `cancel`. An element whose first value is nil
/// arrives as `true` (a generic `for` would end there). So the source is let go however the
/// loop ends: at the sequence's end, by `break`, by an error, or when the effect is cancelled (the
/// driver closes the coroutine, which closes the loop's to-be-closed variable). An error of the
/// source raises in Lua at the line that iterates, where `pcall` can catch it.
@MainActor
enum LuaStream {
  /// A stream whose next element is awaited in Swift (nil: the end).
  static func iterate(
    _ name: String, host: ReluaHost,
    next: @escaping @MainActor () async throws -> [LuaValue]?, cancel: @escaping @MainActor () -> Void = {}
  ) throws -> [LuaValue] {
    try iterate(name, host: host, waitingFor: { .async { try await next() ?? [] } }, cancel: cancel)
  }

  /// A stream whose next element comes as `waitingFor` says, before each suspension: by callback
  /// (a test clock's tick), without a task. Its results are the element; none is the end.
  static func iterate(
    _ name: String, host: ReluaHost,
    waitingFor next: @escaping @MainActor () throws -> LuaSuspension, cancel: @escaping @MainActor () -> Void = {}
  ) throws -> [LuaValue] {
    let lua = host.lua
    var ended = false
    let iterator = try host.driver.awaitable(name: name, in: lua, suspending: { _ in
      if ended { return .callback { resume in resume(.success([])); return {} } }
      return try next().map { element in
        guard let first = element.first else {
          ended = true
          return []
        }
        // A generic `for` ends at a nil first value: an element without one (a notification
        // posted without a value, TCA's `Void`) arrives as `true`.
        return first.isNil ? [.boolean(true)] + element.dropFirst() : element
      }
    })
    let closer = try lua.table()
    let metatable = try lua.table()
    var cancelled = false
    try metatable.rawSet("__close", .function(lua.function { _ in
      MainActor.assumeIsolated {
        guard !cancelled else { return }
        cancelled = true
        ended = true
        cancel()
      }
      return []
    }))
    try metatable.rawSet("__name", .text(name))
    try closer.setMetatable(metatable)
    return [.function(iterator), .nil, .nil, .table(closer)]
  }
}

extension LuaSuspension {
  /// The same wait, its results transformed (on the main actor, as they arrive).
  func map(_ transform: @escaping @MainActor ([LuaValue]) -> [LuaValue]) -> LuaSuspension {
    switch self {
    case .async(let operation):
      return .async { transform(try await operation()) }
    case .callback(let register):
      return .callback { resume in register { result in resume(result.map(transform)) } }
    case .testClock:
      return asCallback.map(transform)
    }
  }
}
