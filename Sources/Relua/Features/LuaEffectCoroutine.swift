import Composable
import Lua

/// A coroutine of a Lua effect: an `Effect.run`'s body, or a child of a `relua.taskGroup` inside it.
/// Each step runs in the effect's context (its dependencies; a child's own sleeps) with this
/// object as `current`, so a `relua.taskGroup` called there knows whose group it opens. Cancelling it
/// cancels the children of the groups it opened (as cancelling a task cancels its task group's).
@MainActor
class LuaEffectCoroutine: LuaDrivenCoroutine {
  /// The coroutine being stepped now, if it is a Lua effect's.
  private(set) static var current: LuaEffectCoroutine?

  /// The effect as this coroutine steps it (a child's: its part's view, with its own sleeps).
  let stepping: DrivenEffect<FeatureAction>
  unowned let host: ReluaHost
  /// The groups it opened and has not closed.
  var openGroups: [LuaEffectGroup] = []

  init(stepping: DrivenEffect<FeatureAction>, host: ReluaHost) {
    self.stepping = stepping
    self.host = host
    super.init(driver: host.driver)
  }

  override func step(_ body: () -> Void) {
    stepping.step {
      let outer = Self.current
      Self.current = self
      defer { Self.current = outer }
      body()
    }
  }

  /// Its children start when it suspends (as a task group's child tasks begin when their parent
  /// suspends on a serial executor).
  override func suspended() { host.effectGroups.startPending() }

  override func cancel() {
    closeGroups()
    super.cancel()
  }

  /// Cancels what its groups still run (it is cancelled, or it ended without closing them: an
  /// error `pcall` cannot catch).
  func closeGroups() {
    let groups = openGroups
    openGroups.removeAll()
    for group in groups { group.close() }
  }
}
