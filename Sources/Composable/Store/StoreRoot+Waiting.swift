/// Waiting for a root store's effects, event-driven: a waiter is resumed when an effect finishes,
/// starts or delivers an action and what it waits for holds (see `StoreWaitList`).
extension StoreRoot {
  /// Suspends until `condition` holds, re-checking it whenever an effect finishes or delivers an action
  /// (no polling). Gives up after `timeout` (nil: no limit) or when the waiting task is cancelled.
  /// Returns whether `condition` holds.
  @discardableResult
  func wait(until condition: @escaping () -> Bool, timeout: Duration? = nil) async -> Bool {
    if condition() { return true }
    let list: StoreWaitList
    if let waitList { list = waitList } else {
      list = StoreWaitList()
      waitList = list
    }
    return await list.wait(until: condition, timeout: timeout)
  }

  /// Resumes the waiters whose condition now holds (see `StoreWaitList.resumeSatisfied`).
  func signalActivity() {
    guard let waitList, waitList.hasWaiters else { return }
    waitList.resumeSatisfied()
  }
}

/// The tasks suspended in `StoreRoot.wait(until:timeout:)`, and one timer for their deadlines. A
/// root makes it on its first wait: a store nobody waits on carries none. Not generic: no metadata
/// look-up in unspecialized code.
@MainActor
final class StoreWaitList {
  private var waiters: [Int: StoreWaiter] = [:]
  private var nextWaiterID = 0
  /// One timer for all waiters' deadlines, due at the earliest (see `armDeadline`).
  private var deadlineTimer: (due: ContinuousClock.Instant, task: Task<Void, Never>)?

  /// Whether a task is waiting now.
  var hasWaiters: Bool { !waiters.isEmpty }

  /// See `StoreRoot.wait(until:timeout:)` (which checks `condition` once before).
  func wait(until condition: @escaping () -> Bool, timeout: Duration?) async -> Bool {
    let deadline = timeout.map { ContinuousClock.now + $0 }
    let id = nextWaiterID
    nextWaiterID += 1
    while !condition() {
      if let deadline, ContinuousClock.now >= deadline { return false }
      if Task.isCancelled { return false }
      await withTaskCancellationHandler {
        // Checked and registered in one main-actor step: no wake-up can be lost in between.
        await withCheckedContinuation { continuation in
          if condition() || Task.isCancelled {
            continuation.resume()
          } else {
            waiters[id] = StoreWaiter(condition: condition, continuation: continuation, deadline: deadline)
            if let deadline { armDeadline(deadline) }
          }
        }
      } onCancel: {
        Task { @MainActor [weak self] in self?.resumeWaiter(id) }
      }
    }
    return true
  }

  private func resumeWaiter(_ id: Int) {
    waiters.removeValue(forKey: id)?.continuation.resume()
  }

  /// Makes sure a timer is due no later than `deadline`. One timer serves every waiter: a test
  /// store's advance waits once per woken sleep, each time with about the same deadline, and a
  /// timer task per wait cost more than the rest of the step.
  private func armDeadline(_ deadline: ContinuousClock.Instant) {
    if let deadlineTimer, deadlineTimer.due <= deadline { return }
    deadlineTimer?.task.cancel()
    let task = Task { @MainActor [weak self] in
      try? await ContinuousClock().sleep(until: deadline, tolerance: nil)
      guard !Task.isCancelled, let self else { return }
      self.deadlineTimer = nil
      self.expireWaiters()
    }
    deadlineTimer = (deadline, task)
  }

  /// Stops the deadline timer (its root is going).
  func cancelDeadlineTimer() { deadlineTimer?.task.cancel() }

  /// Resumes the waiters whose deadline has passed (they return false) and arms the timer for
  /// the earliest deadline left.
  private func expireWaiters() {
    let now = ContinuousClock.now
    var earliest: ContinuousClock.Instant?
    for (id, waiter) in waiters {
      guard let deadline = waiter.deadline else { continue }
      if deadline <= now {
        waiters[id] = nil
        waiter.continuation.resume()
      } else if earliest.map({ deadline < $0 }) ?? true {
        earliest = deadline
      }
    }
    if let earliest { armDeadline(earliest) }
  }

  /// Resumes the waiters whose condition now holds. Conditions are checked here, on the main actor,
  /// so a waiter is resumed only when it can return (each resumption is a main-queue turn).
  func resumeSatisfied() {
    for (id, waiter) in waiters where waiter.condition() {
      waiters[id] = nil
      waiter.continuation.resume()
    }
  }
}

/// A task waiting in `StoreWaitList`.
private struct StoreWaiter {
  var condition: () -> Bool
  var continuation: CheckedContinuation<Void, Never>
  var deadline: ContinuousClock.Instant?
}
