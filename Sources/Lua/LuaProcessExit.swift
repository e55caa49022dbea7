import CLuaShim

/// What runs when a trusted script ends the process with `os.exit`, before it ends: work a host
/// keeps for later that must not be lost (a shared file's save waiting out its delay). `os.exit`
/// exits without returning through Swift, so a `defer` or a close handler never runs there.
package enum LuaProcessExit {
  /// Sets the hook (one per process; nil: none). A C function: it captures nothing.
  package static func setHook(_ hook: (@convention(c) () -> Void)?) { relua_set_exit_hook(hook) }
}
