import CLuaShim

// @unchecked Sendable: the only state is a C atomic int, and the C memory lives as long as this object.
/// Stops the code running in a `LuaState` from any thread (a REPL's Ctrl-C): the count hook sees
/// the flag and raises "interrupted!" (repeatedly, so `pcall` cannot swallow it). Needs the state
/// to be `interruptible` or to have an instruction limit, so that the hook is installed.
public final class LuaInterruptHandle: @unchecked Sendable {
  let flag: OpaquePointer

  init() {
    guard let flag = relua_flag_new() else { fatalError("relua: cannot allocate the interrupt flag") }
    self.flag = flag
  }

  deinit { relua_flag_free(flag) }

  /// Raises `LuaError.interrupted` in the code the state runs, at its next hook; safe from any
  /// thread.
  public func interrupt() { relua_flag_set(flag, 1) }
}
