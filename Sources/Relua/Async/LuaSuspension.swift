import Composable
import Lua

/// What an awaitable waits for while its coroutine is suspended (see `LuaCoroutineDriver`).
package enum LuaSuspension {
  /// Swift async work, awaited by the driver's task (a coroutine the driver steps by callbacks
  /// awaits it in a task made for this one await).
  case async(@MainActor () async throws -> [LuaValue])
  /// Work that reports back by callback, without a task: `register` starts it and returns what
  /// cancels it. `resume` is called once, on the main actor, at once or later, never after the
  /// cancel (a test clock's sleep: woken by the advance that reaches it).
  case callback(
    _ register: @MainActor (_ resume: @escaping @MainActor (Result<[LuaValue], any Error>) -> Void) -> (@MainActor () -> Void))
  /// A sleep on a test store's clock until `deadline`, resuming with no values: a coroutine the
  /// driver steps by callbacks is itself what the clock wakes (no closure, no task); elsewhere it
  /// is the `callback` below.
  case testClock(TestStoreClock, until: TestStoreClock.Instant)

  /// The same wait as a `callback` (a `testClock` sleep through the clock's closure form).
  var asCallback: LuaSuspension {
    guard case let .testClock(clock, deadline) = self else { return self }
    return .callback { resume in clock.schedule(until: deadline) { resume(.success([])) } }
  }
}
