import Clocks

private enum ClockKey: DependencyKey {
  static let liveValue: any Clock<Duration> = ContinuousClock()
  static var name: String { "clock" }
}

extension DependencyValues {
  /// The clock effects sleep on: `ContinuousClock` live; in tests a `TestStoreClock` (moved by
  /// `TestStore.advance`), swift-clocks' `TestClock` or an `ImmediateClock`.
  public var clock: any Clock<Duration> {
    get { self[ClockKey.self] }
    set { self[ClockKey.self] = newValue }
  }
}

extension Clock where Duration == Swift.Duration {
  /// Sleeps for `duration`, registering the sleep on the caller's actor first when this is a
  /// `TestStoreClock` (see `TestStoreClock.sleep(until:isolation:)`): effects on the main actor
  /// then begin their sleeps in the order they run, which is the order ties wake in.
  public func sleep(for duration: Duration, isolation: isolated (any Actor)?) async throws {
    if let clock = self as? TestStoreClock {
      try await clock.sleep(until: clock.now.advanced(by: duration), isolation: isolation)
    } else {
      try await sleep(until: now.advanced(by: duration), tolerance: nil)
    }
  }
}
