/// A save waiting out its key's `saveDelay` before it runs on a background queue. It runs once:
/// on the queue, or earlier wherever it is taken over (`runIfNotStarted`: an outside change about
/// to be loaded, a flush); cancelled, it never runs.
final class PendingSave: Sendable {
  /// Whether it ran, runs, or was cancelled.
  private let started = LockedValue(false)
  /// Whether it moves what is stored aside before saving (`ReluaSharedKey.keepStoredAside`).
  let setsAside: Bool
  private let work: @Sendable () -> Void

  init(setsAside: Bool, work: @escaping @Sendable () -> Void) {
    self.setsAside = setsAside
    self.work = work
  }

  /// Runs the save here unless it started already; true if it ran.
  @discardableResult
  func runIfNotStarted() -> Bool {
    guard claim() else { return false }
    work()
    return true
  }

  /// Keeps it from running; true if it had not started (its work is the caller's now).
  @discardableResult
  func cancel() -> Bool { claim() }

  private func claim() -> Bool {
    started.withLock { started in
      defer { started = true }
      return !started
    }
  }
}
