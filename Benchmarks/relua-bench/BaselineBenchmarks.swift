import CBenchmarkFloor
import Foundation

/// The bare mechanisms the effect figures are built on, measured in the same run (interleaved
/// with them, sample by sample: see main.swift) so that each effect figure is also a ratio (#32):
///
/// - `baseline.task.hop`: `await Task { @MainActor in … }.value` from the main actor, per hop:
///   a task made, run as a main-actor job, and its waiter resumed. What a Swift effect's task
///   costs before the store does anything (`swift.effect.roundtrip` is one per round trip).
/// - `baseline.continuation.resume`: two main-actor tasks taking turns, each suspending in a
///   `withCheckedContinuation` after resuming the other's; per resume (one suspension, one resume,
///   one main-actor job). What an await costs at the least: a Lua effect's `store:wait()` is one.
/// - `baseline.lua.resume`: `lua_resume` from C of a coroutine whose loop calls a C function that
///   yields at once with a continuation (relua's awaitables' shape); per resume. No Swift, no
///   relua: the floor of one Lua effect step (`lua.effects.*` resume one coroutine per action).
@MainActor
func measureTaskHop(iterations: Int) async -> Double {
  let start = ContinuousClock.now
  for index in 0..<iterations {
    await Task { @MainActor in blackHole(index) }.value
  }
  return baselineNanoseconds(ContinuousClock.now - start) / Double(iterations)
}

/// Two main-actor tasks handing one turn back and forth through checked continuations.
@MainActor
private final class TurnTaking {
  var waiting: CheckedContinuation<Void, Never>?

  /// Resumes the other side, if it waits, and waits for its turn back.
  func exchange() async {
    await withCheckedContinuation { continuation in
      let other = waiting
      waiting = continuation
      other?.resume()
    }
  }

  /// After the last exchange: the other side waits for a turn that will not come back.
  func finish() {
    let other = waiting
    waiting = nil
    other?.resume()
  }
}

@MainActor
func measureContinuationResume(iterations: Int) async -> Double {
  let turns = TurnTaking()
  let rounds = max(1, iterations / 2)
  let start = ContinuousClock.now
  let sides = (0..<2).map { _ in
    Task { @MainActor in
      for _ in 0..<rounds { await turns.exchange() }
      turns.finish()
    }
  }
  for side in sides { await side.value }
  // 2 × rounds suspensions, each ended by one resume (the last by `finish`).
  return baselineNanoseconds(ContinuousClock.now - start) / Double(2 * rounds)
}

func measureLuaResume(iterations: Int) -> Double {
  let perResume = relua_bench_lua_resume(Int64(iterations))
  if perResume < 0 { fatalError("baseline.lua.resume: the coroutine did not yield") }
  return perResume
}

private func baselineNanoseconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
}
