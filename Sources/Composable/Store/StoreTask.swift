/// The effects one send started (TCA's `StoreTask`): the effect tasks the store started during
/// that send, follow-up actions' effects included, but not the effects of actions those effects
/// send later.
///
/// A send that started no effect gives a task with nothing to cancel or wait for, which reports
/// itself cancelled (as TCA's does); it costs nothing to make.
public struct StoreTask: Hashable, Sendable {
  @usableFromInline let effects: StoreTaskEffects?

  /// A task for a send that started no effect.
  @inlinable
  public init() { effects = nil }

  init(effects: StoreTaskEffects) { self.effects = effects }

  /// Whether the send started any effect.
  @inlinable
  public var startedEffects: Bool { effects != nil }

  /// Cancels the effects: they stop, and their actions never arrive.
  @MainActor
  public func cancel() {
    guard let effects else { return }
    effects.cancelled = true
    effects.owner.cancelTasks(effects.ids)
  }

  /// Waits until the effects have finished (or were cancelled), or the waiting task is cancelled.
  @MainActor
  public func finish() async {
    guard let effects else { return }
    _ = await effects.owner.waitForTasks(effects.ids, timeout: nil)
  }

  /// `finish()` with a limit: false when some effect was still running at the deadline.
  @MainActor
  public func finish(timeout: Duration) async -> Bool {
    guard let effects else { return true }
    return await effects.owner.waitForTasks(effects.ids, timeout: timeout)
  }

  /// Whether `cancel()` was called on this task (or a copy of it). A send that started no effect
  /// gives a task that is always cancelled, as in TCA.
  @MainActor
  public var isCancelled: Bool { effects?.cancelled ?? true }

  /// Whether every effect has finished (a cancelled one has).
  @MainActor
  public var isFinished: Bool {
    guard let effects else { return true }
    return effects.owner.tasksFinished(effects.ids)
  }

  /// Two tasks are equal when they are the same send's.
  public static func == (lhs: StoreTask, rhs: StoreTask) -> Bool { lhs.effects === rhs.effects }

  /// Hashes the send's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(effects.map(ObjectIdentifier.init))
  }
}

/// The effects of a `StoreTask`: their ids in the store that runs them (ids only grow, so one
/// send's effects are one range), and whether the task was cancelled.
@MainActor
@usableFromInline
final class StoreTaskEffects: Sendable {
  let owner: any StoreTaskOwner
  let ids: Range<Int>
  var cancelled = false

  init(owner: any StoreTaskOwner, ids: Range<Int>) {
    self.owner = owner
    self.ids = ids
  }
}

/// A store as its tasks reach it (`StoreRootLink`: without keeping it alive; a store that is gone
/// has cancelled all its effects).
@MainActor
protocol StoreTaskOwner: AnyObject {
  func cancelTasks(_ ids: Range<Int>)
  func tasksFinished(_ ids: Range<Int>) -> Bool
  func waitForTasks(_ ids: Range<Int>, timeout: Duration?) async -> Bool
}
