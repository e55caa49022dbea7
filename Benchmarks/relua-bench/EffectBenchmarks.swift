import Foundation
import Lua
import Relua

/// Lua effects at scale (#18):
/// - `lua.effect.roundtrip`: `store:send("start")`, whose `Effect.run` sends one action back, then
///   `store:wait()`, from a Lua loop; per round trip (goal ≤ 50 × `baseline.continuation.resume`;
///   it was ≤ 15 µs).
/// - `lua.effects.100` / `lua.effects.10000`: that many Lua effects asleep on a test store's clock
///   at once, one `store:advance(1)` waking them all; per delivered action (goal ≤ 110 ×
///   `baseline.lua.resume`, it was ≤ 5 µs; and the large one ≤ 2 × the small one).
/// - `lua.effect.memory`: heap memory per suspended Lua effect, 10,000 of them (goal ≤ 2 KB).
/// - `lua.effects.cancelled`: whether registry references and resident memory come back after
///   100,000 effects started and cancelled; `lua.effects.cancelled.time`: the time per effect
///   started and cancelled (1,000 sends of a sleeping effect, a cancel, a `store:wait()`).
@MainActor
func measureLuaEffectRoundTrip(iterations: Int) async -> Double {
  let (lua, store) = makeEffectStore(test: false)
  let loop = try! lua.load("local store, n = ... for _ = 1, n do store:send('start') store:wait() end")
  let start = ContinuousClock.now
  _ = try! await LuaCoroutineDriver.run(loop, arguments: [store, .integer(Int64(iterations))])
  return nanoseconds(ContinuousClock.now - start) / Double(iterations)
}

/// Per delivered action: `count` effects asleep, one advance wakes them all; `repetitions` times,
/// each on a fresh store, the advances' times summed (a sample of 100 effects alone is ≈ 0.5 ms,
/// which one preemption of this shared machine multiplies).
@MainActor
func measureLuaEffectsAsleep(count: Int, repetitions: Int = 1) async -> Double {
  var elapsed = 0.0
  // PERF_CTL=FIFO: perf's control FIFO (`perf record -D -1 --control=fifo:FIFO`), so that a
  // profile holds the advance alone, not the sends that set it up.
  let ctl = ProcessInfo.processInfo.environment["PERF_CTL"].flatMap { FileHandle(forWritingAtPath: $0) }
  for _ in 0..<repetitions {
    let (lua, store) = makeEffectStore(test: true)
    let start = try! lua.load("local store, n = ... store:exhaustive(false) for _ = 1, n do store:send('sleep') end")
    _ = try! await LuaCoroutineDriver.run(start, arguments: [store, .integer(Int64(count))])
    let advance = try! lua.load("local store = ... store:advance(1) store:skipReceivedActions()")
    let begin = ContinuousClock.now
    ctl?.write(Data("enable\n".utf8))
    _ = try! await LuaCoroutineDriver.run(advance, arguments: [store])
    ctl?.write(Data("disable\n".utf8))
    elapsed += nanoseconds(ContinuousClock.now - begin)
  }
  return elapsed / Double(count * repetitions)
}

/// Heap bytes per suspended Lua effect (`count` of them, asleep on a test clock): the Swift task
/// with its frames, the Lua coroutine, the store's bookkeeping (see `heapBytesInUse`).
@MainActor
func measureLuaEffectMemory(count: Int) async -> Double {
  let (lua, store) = makeEffectStore(test: true)
  let start = try! lua.load("local store, n = ... store:exhaustive(false) for _ = 1, n do store:send('sleep') end")
  _ = try! await LuaCoroutineDriver.run(start, arguments: [store, .integer(10)])
  lua.collectGarbage()
  let before = heapBytesInUse()
  let luaBefore = lua.memoryUsed
  _ = try! await LuaCoroutineDriver.run(start, arguments: [store, .integer(Int64(count))])
  lua.collectGarbage()
  if ProcessInfo.processInfo.environment["RELUA_BENCH_DETAIL"] != nil {
    FileHandle.standardError.write(Data("lua.effect.memory: Lua's own \((lua.memoryUsed - luaBefore) / count) bytes per effect, \((heapBytesInUse() - before) / count) in all\n".utf8))
  }
  return Double(max(0, heapBytesInUse() - before)) / Double(count)
}

/// Starts and cancels `count` effects in rounds of 1,000; whether the registry references came
/// back to their baseline, and the resident memory growth in MB.
@MainActor
func measureLuaEffectsCancelled(count: Int) async -> (referencesBack: Bool, megabytes: Double, nanosecondsPerEffect: Double) {
  // Asleep on a test clock nobody moves: a cancelled sleep ends there and then (one on the live
  // clock leaves a system timer behind until its deadline).
  let (lua, store) = makeEffectStore(test: false, clock: "test")
  let round = try! lua.load("local store, n = ... for _ = 1, n do store:send('sleep') end store:send('stop') store:wait()")
  _ = try! await LuaCoroutineDriver.run(round, arguments: [store, .integer(1_000)])
  let wait = try! lua.load("local store = ... store:wait()")
  _ = try! await LuaCoroutineDriver.run(wait, arguments: [store])
  lua.collectGarbage()
  let references = lua.liveReferences
  let before = residentBytes()
  let begin = ContinuousClock.now
  for _ in 0..<(count / 1_000) {
    _ = try! await LuaCoroutineDriver.run(round, arguments: [store, .integer(1_000)])
  }
  let elapsed = nanoseconds(ContinuousClock.now - begin) / Double(count / 1_000 * 1_000)
  _ = try! await LuaCoroutineDriver.run(wait, arguments: [store])
  lua.collectGarbage()
  let after = lua.liveReferences
  if after != references {
    FileHandle.standardError.write(Data("lua.effects.cancelled: live references \(references) → \(after)\n".utf8))
  }
  return (after == references, Double(max(0, residentBytes() - before)) / 1_048_576, elapsed)
}

private let effectFeature = """
  local relua = require "relua"
  local Effect = relua.Effect
  return relua.feature "Effects" {
    state = { done = 0 },
    actions = { start = {}, done = {}, sleep = {}, stop = {} },
    reduce = relua.on {
      start = function() return Effect.run(function(send) send("done") end) end,
      sleep = function(_, _, deps)
        return Effect.run(function(send) deps.clock.sleep(1) send("done") end):cancellable("sleepers")
      end,
      stop = function() return Effect.cancel("sleepers") end,
      done = function(s) s.done = s.done + 1 end,
    },
  }
  """

@MainActor
private func makeEffectStore(test: Bool, clock: String? = nil) -> (LuaState, LuaValue) {
  let lua = try! LuaState()
  try! ReluaHost.install(in: lua)
  let feature = try! lua.execute(effectFeature, name: "=Effects")[0]
  let relua = try! lua.global("relua").tableValue!
  let options = try! lua.table(fields: [
    "deps": .table(try! lua.table(fields: ["clock": .text(clock ?? (test ? "test" : "live"))])),
    "limits": .table(try! lua.table(fields: ["effectsInFlight": .integer(1_000_000)])),
  ])
  let make = try! (test ? relua["TestStore"] : relua["Store"])
  let store = try! lua.call(make.functionValue!, feature, .table(options))[0]
  return (lua, store)
}

private func nanoseconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
}
