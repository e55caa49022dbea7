/// When the effects in flight have settled, for a `TestStore` to wait on (`wait(until:timeout:)`
/// re-checks these when an effect starts, falls asleep on a `TestStoreClock`, delivers or ends).
extension StoreRoot {
  /// Whether every effect's task has had its first main-actor turn. A task started by a send does
  /// not reliably run before the code that sent goes on (on Linux a main-actor task can start after
  /// its creator has resumed from several suspensions), so a test store waits for this; otherwise
  /// the next send could cancel an effect that never ran at all.
  var allEffectsStarted: Bool {
    inFlight.values.allSatisfy(\.started)
  }

  /// Whether nothing can happen before a `TestStoreClock` moves: every run effect has a sleep
  /// registered with it, and every concatenation waits for effects of its current step that are
  /// still in flight (between two steps it is busy). Vacuously true when no effect is in flight.
  var allEffectsAsleep: Bool {
    inFlight.values.allSatisfy { entry in
      guard entry.started else { return false }
      if let activity = entry.activity { return activity.isAsleep }
      return !entry.children.isEmpty && entry.children.allSatisfy { inFlight[$0] != nil }
    }
  }
}
