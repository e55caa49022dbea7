import Foundation

/// How many sleeps a running `run` effect has registered with a `TestStoreClock`: the store makes
/// one per effect task, the task carries it as a task local, and the clock counts the effect's
/// sleeps in it. Registering and waking happen under the clock's lock, so when a `TestStore`
/// reads "asleep" the effect is asleep, and a woken effect counts as awake from the moment the
/// clock moves (not from when its task resumes). See `StoreRoot.allEffectsAsleep`.
final class EffectActivity: @unchecked Sendable {
  @TaskLocal static var current: EffectActivity?

  private let lock = NSLock()
  private var sleeps = 0
  /// Re-checks what the store's waiters wait for (called off the main actor too).
  private let didFallAsleep: @Sendable () -> Void

  init(didFallAsleep: @escaping @Sendable () -> Void) {
    self.didFallAsleep = didFallAsleep
  }

  var isAsleep: Bool { lock.withLock { sleeps > 0 } }

  /// A sleep of this effect was registered (the clock calls it under its lock, then `announce`).
  func fellAsleep() { lock.withLock { sleeps += 1 } }

  /// A sleep of this effect was woken or cancelled.
  func wokeUp() { lock.withLock { sleeps -= 1 } }

  /// Tells the store, after the clock released its lock.
  func announce() { didFallAsleep() }
}
