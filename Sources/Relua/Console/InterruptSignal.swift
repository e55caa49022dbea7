import Foundation
import Lua

/// Ctrl-C: while a chunk runs, SIGINT asks the Lua state to stop at its next instruction (through
/// its hook: "interrupted!"); at the prompt it is left to the line editor.
enum InterruptSignal {
  nonisolated(unsafe) private static var handle: LuaInterruptHandle?
  nonisolated(unsafe) private static var installed = false

  @MainActor
  static func arm(_ lua: LuaState) {
    handle = lua.interruptHandle
    if !installed {
      installed = true
      signal(SIGINT) { _ in InterruptSignal.handle?.interrupt() }
    }
  }

  static func disarm() { handle = nil }
}
