import Foundation

/// How many sleeps a running `run` effect has registered with a `TestStoreClock` (or parks, see
/// `ParkedEffect`): the store makes one per effect task, the task carries it as a task local, and
/// the clock counts the effect's sleeps in it. Registering and waking happen under the clock's
/// lock, so when a `TestStore` reads "asleep" the effect is asleep, and a woken effect counts as
/// awake from the moment the clock moves (not from when its task resumes).
///
/// Between its first turn (`started`) and its end (`ended`) the effect is counted in its store's
/// `AwakeEffects` while it is not asleep, so the store can tell whether any effect can still run
/// without looking at each one (see `StoreRoot.allEffectsAsleep`). It also takes the warnings the
/// effect reports to its store. A store that does not count (only a test store's root does, see
/// `StoreRoot.trackSettling`) gives it no `AwakeEffects`: then only the warnings go through.
final class EffectActivity: @unchecked Sendable {
  @TaskLocal static var current: EffectActivity?

  // Guarded by `awake`'s lock: one lock per store, not one object per effect.
  private var sleeps = 0
  private var counted = false
  private let awake: AwakeEffects?
  /// The store's warnings, for what the effect reports (`RuntimeWarnings.report`), and its
  /// dismissal (one closure per effect for both: see `EffectReport`).
  private let report: @Sendable (EffectReport, _ onMainActor: Bool) -> Void

  init(awake: AwakeEffects?, report: @escaping @Sendable (EffectReport, _ onMainActor: Bool) -> Void = { _, _ in }) {
    self.awake = awake
    self.report = report
  }

  /// The activity of a concurrent part of this effect (a task group's child, see
  /// `DrivenEffectPart`): counted in the same store as an effect of its own, with the same warnings.
  func part() -> EffectActivity { EffectActivity(awake: awake, report: report) }

  /// Gives the store a warning the effect reported: at once on the main actor (where effects run),
  /// else (a child task of the effect's) in a main-actor task.
  func warn(_ warning: RuntimeWarning, onMainActor: Bool) { report(.warning(warning), onMainActor) }

  /// The effect's feature is its store's root and called `dismiss()` (see StoreRoot+Dismissal).
  @MainActor
  func dismissRoot(calledFrom place: String, cancelled: Bool) { report(.rootDismissal(place: place, cancelled: cancelled), true) }

  /// Whether a sleep of it is registered (false when its store does not count).
  var isAsleep: Bool { awake?.withLock { sleeps > 0 } ?? false }

  /// The effect had its first turn: counted from now on.
  func started() {
    guard let awake else { return }
    awake.withLock {
      counted = true
      if sleeps == 0 { awake.count += 1 }
    }
  }

  /// The effect finished or was cancelled: no longer counted.
  func ended() {
    guard let awake else { return }
    awake.withLock {
      if counted && sleeps == 0 { awake.count -= 1 }
      counted = false
    }
  }

  /// A sleep of this effect was registered (the clock calls it under its lock, then `announce`).
  func fellAsleep() {
    guard let awake else { return }
    awake.withLock {
      sleeps += 1
      if sleeps == 1 && counted { awake.count -= 1 }
    }
  }

  /// A sleep of this effect was woken or cancelled.
  func wokeUp() {
    guard let awake else { return }
    awake.withLock {
      sleeps -= 1
      if sleeps == 0 && counted { awake.count += 1 }
    }
  }

  /// Tells the store, after the clock released its lock; `isolation` is the sleeper's.
  func announce(isolation: isolated (any Actor)?) {
    awake?.didFallAsleep(isolation.map { $0 === MainActor.shared } ?? false)
  }
}

/// How many of a store's run effects have started, not ended, and are not asleep; its lock also
/// guards each effect's `EffectActivity`.
final class AwakeEffects: @unchecked Sendable {
  private let lock = NSLock()
  fileprivate var count = 0
  /// Re-checks what the store's waiters wait for: on the main actor (true) at once, else in a
  /// main-actor task.
  let didFallAsleep: @Sendable (_ onMainActor: Bool) -> Void

  init(didFallAsleep: @escaping @Sendable (_ onMainActor: Bool) -> Void) { self.didFallAsleep = didFallAsleep }

  fileprivate func withLock<R>(_ body: () -> R) -> R { lock.withLock(body) }

  var value: Int { lock.withLock { count } }
}

/// What a running effect tells its store through its `EffectActivity`: a warning, or that its
/// feature, the store's root, called `dismiss()`. One enum, so that an effect keeps one closure
/// for both (a second one cost every effect in flight its bytes).
enum EffectReport: Sendable {
  case warning(RuntimeWarning)
  case rootDismissal(place: String, cancelled: Bool)
}
