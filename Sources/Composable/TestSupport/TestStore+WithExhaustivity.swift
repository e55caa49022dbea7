/// Exhaustivity for a block (TCA's `store.withExhaustivity(.off) { … }`).
extension TestStore {
  /// Runs `body` with `exhaustivity`, then restores the store's previous exhaustivity — also when
  /// `body` throws.
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity, _ body: () async throws -> R
  ) async rethrows -> R {
    let previous = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = previous }
    return try await body()
  }

  /// `withExhaustivity(_:_:)` for a synchronous block.
  public func withExhaustivity<R>(_ exhaustivity: Exhaustivity, _ body: () throws -> R) rethrows -> R {
    let previous = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = previous }
    return try body()
  }
}
