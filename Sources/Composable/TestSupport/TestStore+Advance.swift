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
    let deadline = ContinuousClock.now.advanced(by: timeout ?? self.timeout)
    let root = self.root
    while true {
      let left = max(.zero, ContinuousClock.now.duration(to: deadline))
      await root.wait(until: { root.allEffectsAsleep }, timeout: left)
      guard clock.wakeNext(notAfter: target) else { break }
    }
    clock.move(to: target)
  }
}
