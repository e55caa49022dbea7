extension Effect {
  /// Waits `duration` on `clock` before running this effect; a newer effect with the same id started
  /// during the wait replaces it (only the last one of a burst runs).
  public func debounce(
    id: some Hashable & Sendable, for duration: Duration, clock: any Clock<Duration>
  ) -> Effect {
    if isNone { return .cancel(id: id) }
    return Effect.concatenate(
      .run { _ in try await clock.sleep(for: duration, isolation: #isolation) },
      self
    )
    .cancellable(id: id, cancelInFlight: true)
  }
}
