import Foundation

/// Runs the jobs of Swift concurrency's global executor on the main actor's serial queue while it is
/// in use: nonisolated effect code (`Effect.run`'s operation, a continuation's resumption) then runs
/// one job at a time, on the queue the store lives on, in the order it was enqueued — as TCA's tests
/// do with `withMainSerialExecutor`.
///
/// Why: on Linux the main actor's queue is drained by a dispatch worker thread, and each hop between
/// the global executor and the main actor wakes another thread. An effect that sends one action back
/// hops four times (≈ 70 µs here); serial, it costs about 1 µs. The price: nonisolated code no longer
/// runs in parallel with the main actor. Blocking work belongs on a thread or a dispatch queue (as
/// relua's sockets do), never in a task, with or without this executor.
///
/// Uses nest: the executor is in use while at least one `acquire` has not been `release`d. A
/// `TestStore` acquires it for its lifetime (`TestStore.useMainSerialExecutor`); the relua command
/// line acquires it for the whole process. Sleeps on a real clock still wake on a worker thread
/// (delayed jobs do not go through the hook) and hop back.
public enum MainSerialExecutor {
  private typealias Enqueue = @convention(thin) (UnownedJob) -> Void
  private typealias Hook = @convention(thin) (UnownedJob, Enqueue) -> Void

  private static let lock = NSLock()
  nonisolated(unsafe) private static var holders = 0
  nonisolated(unsafe) private static var saved: Hook?

  /// The Swift runtime's hook for enqueueing a job on the global executor (nil when the runtime
  /// has none: then this type does nothing).
  nonisolated(unsafe) private static let hook: UnsafeMutablePointer<Hook?>? = {
    guard let symbol = dlsym(dlopen(nil, RTLD_LAZY), "swift_task_enqueueGlobal_hook") else { return nil }
    return symbol.assumingMemoryBound(to: Hook?.self)
  }()

  /// Whether global jobs run on the main actor's queue now.
  public static var isInUse: Bool { lock.withLock { holders > 0 && hook != nil } }

  /// Starts (or keeps) running global jobs on the main actor's queue.
  public static func acquire() {
    lock.withLock {
      holders += 1
      guard holders == 1, let hook else { return }
      saved = hook.pointee
      hook.pointee = { job, _ in MainActor.shared.enqueue(job) }
    }
  }

  /// Ends one `acquire`; the last one restores the global executor as it was.
  public static func release() {
    lock.withLock {
      precondition(holders > 0, "MainSerialExecutor.release() without acquire()")
      holders -= 1
      guard holders == 0, let hook else { return }
      hook.pointee = saved
      saved = nil
    }
  }

  /// Runs `operation` with global jobs on the main actor's queue.
  @MainActor
  public static func with<R>(_ operation: @MainActor () async throws -> R) async rethrows -> R {
    acquire()
    defer { release() }
    return try await operation()
  }
}
