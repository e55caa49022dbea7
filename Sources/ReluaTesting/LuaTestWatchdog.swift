import Relua

import Foundation
import Lua

/// A test's wall-clock limit (`relua test --test-timeout`): when it passes, the Lua running in
/// the test's state is interrupted (a spin in pure Lua: the count hook raises at the next check,
/// and again at every later one, so no `pcall` keeps it) and the task awaiting the test's step is
/// cancelled (a wait on the live clock: the driver closes the coroutine). Either way the step
/// fails, the runner names it as timed out and runs nothing more in that state.
///
/// Fires from a queue of its own: a test spinning in Lua holds the main actor.
final class LuaTestWatchdog: @unchecked Sendable {
  let seconds: Double
  private let lock = NSLock()
  private var handles: [LuaInterruptHandle] = []
  private var cancels: [@Sendable () -> Void] = []
  private var fired = false
  private var stopped = false

  init(seconds: Double) {
    self.seconds = seconds
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in self?.fire() }
  }

  /// Whether the limit passed while the test ran.
  var hasFired: Bool { lock.withLock { fired } }

  /// Interrupts this state's Lua when the limit passes (at once if it already has).
  func watch(_ state: LuaState) {
    state.isInterruptible = true
    let now = lock.withLock { () -> Bool in
      handles.append(state.interruptHandle)
      return fired
    }
    if now { state.interruptHandle.interrupt() }
  }

  /// Calls `cancel` when the limit passes (at once if it already has).
  func onFire(_ cancel: @escaping @Sendable () -> Void) {
    let now = lock.withLock { () -> Bool in
      cancels.append(cancel)
      return fired
    }
    if now { cancel() }
  }

  /// The test is over: the limit no longer applies.
  func stop() { lock.withLock { stopped = true } }

  private func fire() {
    let (handles, cancels) = lock.withLock { () -> ([LuaInterruptHandle], [@Sendable () -> Void]) in
      guard !stopped else { return ([], []) }
      fired = true
      return (self.handles, self.cancels)
    }
    for handle in handles { handle.interrupt() }
    for cancel in cancels { cancel() }
  }

  /// `2 s`, `0.5 s`: the limit as the failure says it.
  var shown: String {
    seconds == seconds.rounded() && seconds < 1e15 ? "\(Int(seconds)) s" : "\(seconds) s"
  }
}
