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
    Self.waiting.withLock { $0[ObjectIdentifier(self)] = self }
  }

  /// The saves made and not started yet, in the whole process (what `runAllWaiting` runs).
  private static let waiting = LockedValue<[ObjectIdentifier: PendingSave]>([:])

  /// Runs every save still waiting, here: the process is about to end without closing its
  /// states (a trusted `os.exit`).
  static func runAllWaiting() {
    let saves = waiting.withLock { waiting in
      defer { waiting.removeAll() }
      return Array(waiting.values)
    }
    for save in saves { save.runIfNotStarted() }
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
    let claimed = started.withLock { started in
      defer { started = true }
      return !started
    }
    if claimed { Self.waiting.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(self)) } }
    return claimed
  }
}
