extension TestStore {
  /// Moves `clock` forward by `duration`, exactly: when this returns, every effect that can run up
  /// to the new time has run, and the actions it sent wait to be asserted with `receive`.
  ///
  /// Time moves from one sleep's deadline to the next, one sleep at a time. Before each step the
  /// store waits until every effect in flight sleeps on `clock` (or has finished), so a sleep an
  /// effect is about to begin is never skipped; then it wakes the sleep due first and waits again.
  /// Sleeps due at the same instant wake in the order they began (deterministic, as in TCA). Effects waiting on something other
  /// than `clock` are waited for at most `timeout` (the store's, 1 s by default) in all, then time
  /// moves on without them.
  public func advance(
    _ clock: TestStoreClock, by duration: Duration, timeout: Duration? = nil,
    file: StaticString = #filePath, line: UInt = #line
  ) async {
    currentLocation = SourceLocation(file: file, line: line)
    let target = clock.now.advanced(by: duration)
    var patience = BusyEffectsPatience(timeout ?? self.timeout)
    while true {
      await patience.waitUntilAsleep(root)
      guard clock.wakeNext(notAfter: target) else { break }
    }
    clock.move(to: target)
  }

  /// Waits until every effect is asleep on a test clock, parked (`ParkedEffect`) or finished —
  /// after the test gave an effect something (a posted notification), so that what it does with
  /// it has happened when this returns. Effects busy with something else are waited for at most
  /// `timeout` (the store's, 1 s by default).
  public func settle(timeout: Duration? = nil) async {
    var patience = BusyEffectsPatience(timeout ?? self.timeout)
    await patience.waitUntilAsleep(root)
  }

  /// How many sleeps `run` wakes at most: a sleep in a loop (a timer) never lets a clock run out.
  static var maxWokenByRun: Int { 10_000 }

  /// Runs `clock` until no sleep is left on it (TCA's `TestClock.run()`): as `advance`, from one
  /// deadline to the next, one sleep at a time, each woken effect run to its next sleep or its
  /// end. Fails, and returns false, when sleeps are still pending after `maxWokenByRun` of them
  /// (an effect that sleeps in a loop); `now` is then the last deadline reached.
  @discardableResult
  public func run(_ clock: TestStoreClock, timeout: Duration? = nil, file: StaticString = #filePath, line: UInt = #line) async -> Bool {
    await run(clock, timeout: timeout, failing: true, at: SourceLocation(file: file, line: line))
  }

  /// `run`; `failing`: whether sleeps left pending fail the test (`finish` reports the effects
  /// still running instead).
  public func run(_ clock: TestStoreClock, timeout: Duration?, failing: Bool, at location: SourceLocation) async -> Bool {
    currentLocation = location
    var patience = BusyEffectsPatience(timeout ?? self.timeout)
    var woken = 0
    while true {
      await patience.waitUntilAsleep(root)
      if woken == Self.maxWokenByRun { break }
      guard clock.wakeNext() else { return true }
      woken += 1
    }
    if failing {
      fail(
        """
        Expected all sleeps to finish, but some are still pending after \(woken) were woken.

        An effect that sleeps in a loop (a timer) never lets the clock run out: advance it by a \
        duration instead, or cancel the effect first.
        """, at: location)
    }
    return false
  }
}

/// How long a clock's advance waits, in all, for effects that are neither asleep on the clock nor
/// finished (waiting on a live dependency): each step waits until every effect is asleep; only
/// the waits that end without that count against the timeout. Effects that fall asleep promptly
/// never use it up, however many steps an advance takes.
struct BusyEffectsPatience {
  private var left: Duration

  init(_ timeout: Duration) { left = timeout }

  @MainActor
  mutating func waitUntilAsleep<State, Action>(_ root: StoreRoot<State, Action>) async {
    // The common case after a wake: the woken effect (driven by the clock's callback) has already
    // run to its next sleep.
    if root.allEffectsAsleep { return }
    let start = ContinuousClock.now
    if await !root.wait(until: { root.allEffectsAsleep }, timeout: left) {
      left = max(.zero, left - start.duration(to: ContinuousClock.now))
    }
  }
}
