import Foundation
import Lua
import Relua

/// `run`: bytes as a whole Lua script, run as `relua run` runs one: a fresh sandboxed state (64 MB,
/// 1,000,000 instructions per resume), the relua host installed (`require "relua"`, `relua`,
/// stores, effects; `require` finds Scripts/…), the chunk driven as a coroutine so it can await
/// (`store:wait()`). No live GitHub client is installed. A script still running after 1 s of wall
/// time is cancelled (its task), after 3 s its Lua code is interrupted; then every store's effects
/// are stopped before the state closes. Errors are expected; a crash, or a script that neither
/// ends nor stops when cancelled and interrupted (10 s), is a bug.
@MainActor
final class RunTarget: FuzzTarget {
  func run(_ input: UnsafeRawBufferPointer) {
    let (lua, host) = makeFuzzHost(for: "run")
    do {
      let argTable = try lua.table(array: [])
      try argTable.rawSet(.integer(0), .text("fuzz.lua"))
      try lua.setGlobal("arg", .table(argTable))
    } catch {
      fatalError("relua-fuzz run: cannot make a Lua state: \(error)")
    }
    defer { lua.close() }
    let watchdog = Watchdog(lua.interruptHandle, seconds: 3)
    defer { watchdog.cancel() }

    let chunk: LuaFunction
    do { chunk = try lua.load(bytes: input, name: "@fuzz.lua") } catch { verbose("run: \(error)"); return }
    let (finished, task, box) = runAsync(seconds: 1) {
      do { _ = try await LuaCoroutineDriver.run(chunk, arguments: []) } catch { verbose("run: \(error)") }
    }
    if !finished {
      task.cancel()
      if !pump(until: { box.done }, seconds: 10) {
        invariantFailed("the script did not end within 10 s of being cancelled (and interrupted after 3 s)")
      }
    }
    let (stopped, _, _) = runAsync(seconds: 10) { await host.stopEffects() }
    if !stopped { invariantFailed("the stores' effects did not stop within 10 s of being cancelled") }
  }
}
