/// When the effects in flight have settled, for a `TestStore` to wait on (`wait(until:timeout:)`
/// re-checks these when an effect starts, falls asleep on a `TestStoreClock`, delivers or ends).
extension StoreRoot {
  /// Whether every effect's task has had its first main-actor turn. A task started by a send does
  /// not reliably run before the code that sent goes on (on Linux a main-actor task can start after
  /// its creator has resumed from several suspensions), so a test store waits for this; otherwise
  /// the next send could cancel an effect that never ran at all.
  var allEffectsStarted: Bool { unstartedEffects == 0 }

  /// Whether nothing can happen before a `TestStoreClock` moves (or the test posts): every run
  /// effect has a sleep registered with it (or is parked), and every concatenation waits for
  /// effects of its current step that are still in flight (between two steps it is busy).
  /// Vacuously true when no effect is in flight. Counted, not scanned: an advance over 10,000
  /// sleeping effects checks this after each wake.
  var allEffectsAsleep: Bool {
    guard unstartedEffects == 0, awakeEffects.value == 0 else { return false }
    return concatenations.allSatisfy { taskID in
      guard inFlight[taskID] != nil else { return true }
      guard let children = concatenationSteps[taskID] else { return false }
      return !children.isEmpty && children.allSatisfy { inFlight[$0] != nil }
    }
  }
}
