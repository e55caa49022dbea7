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
