/// When the effects in flight have settled, for a `TestStore` to wait on (`wait(until:timeout:)`
/// re-checks these when an effect starts, falls asleep on a `TestStoreClock`, delivers or ends).
/// Only a root a test store made counts them (`trackSettling`): a production store has no use for it.
extension StoreRoot {
  /// Counts what `allEffectsStarted` and `allEffectsAsleep` read from now on. A test store asks
  /// as it makes its store, before any effect has started.
  func trackSettling() {
    guard settling == nil else { return }
    let link = self.link
    settling = StoreSettling(awakeEffects: AwakeEffects { onMainActor in
      if onMainActor {
        MainActor.assumeIsolated { link.root?.signalActivity() }
      } else {
        Task { @MainActor in link.root?.signalActivity() }
      }
    })
  }

  /// Whether every effect's task has had its first main-actor turn. A task started by a send does
  /// not reliably run before the code that sent goes on (on Linux a main-actor task can start after
  /// its creator has resumed from several suspensions), so a test store waits for this; otherwise
  /// the next send could cancel an effect that never ran at all. (Counted after `trackSettling`.)
  var allEffectsStarted: Bool { (settling?.unstartedEffects ?? 0) == 0 }

  /// Whether nothing can happen before a `TestStoreClock` moves (or the test posts): every run
  /// effect has a sleep registered with it (or is parked), and every concatenation waits for
  /// effects of its current step that are still in flight (between two steps it is busy).
  /// Vacuously true when no effect is in flight. Counted, not scanned: an advance over 10,000
  /// sleeping effects checks this after each wake. (Counted after `trackSettling`.)
  var allEffectsAsleep: Bool {
    guard let settling else { return inFlight.isEmpty }
    guard settling.unstartedEffects == 0, settling.awakeEffects.value == 0 else { return false }
    return settling.concatenations.allSatisfy { taskID in
      guard inFlight[taskID] != nil else { return true }
      guard let children = settling.concatenationSteps[taskID] else { return false }
      return !children.isEmpty && children.allSatisfy { inFlight[$0] != nil }
    }
  }
}

/// A root store's counts of its effects' progress that a `TestStore` waits on (see
/// `StoreRoot.allEffectsAsleep`): made by `StoreRoot.trackSettling`, updated as effects are
/// registered, begin and finish. Not generic: no metadata look-up in unspecialized code.
@MainActor
final class StoreSettling {
  /// Effects in flight that have not had their first turn.
  var unstartedEffects = 0
  /// Run effects started and not asleep (each effect's `EffectActivity` counts itself here).
  let awakeEffects: AwakeEffects
  /// Concatenations in flight, by task id.
  var concatenations: Set<Int> = []
  /// A concatenation's effects of its current step (their task ids), by the concatenation's.
  var concatenationSteps: [Int: [Int]] = [:]

  init(awakeEffects: AwakeEffects) { self.awakeEffects = awakeEffects }

  /// An effect was registered in flight (not started yet).
  func registered(_ taskID: Int, isConcatenation: Bool) {
    unstartedEffects += 1
    if isConcatenation { concatenations.insert(taskID) }
  }

  /// An effect left the effects in flight (ended or cancelled).
  func finished(_ taskID: Int, started: Bool, isConcatenation: Bool) {
    if !started { unstartedEffects -= 1 }
    if isConcatenation {
      concatenations.remove(taskID)
      concatenationSteps[taskID] = nil
    }
  }
}
