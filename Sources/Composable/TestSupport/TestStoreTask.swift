/// The effects one `TestStore.send` started (TCA's `TestStoreTask`): cancel them (a feature's
/// effect that only its parent would end, e.g. when the screen goes away), or assert that they
/// finish in time.
@MainActor
public struct TestStoreTask: Hashable {
  let storeTask: StoreTask
  let timeout: Duration
  let fail: (String, SourceLocation) -> Void

  init(storeTask: StoreTask, timeout: Duration, fail: @escaping (String, SourceLocation) -> Void) {
    self.storeTask = storeTask
    self.timeout = timeout
    self.fail = fail
  }

  /// Cancels the effects and lets them wind down; their actions never arrive.
  public func cancel() async {
    storeTask.cancel()
    await Task.megaYield()
  }

  /// Waits for the effects to finish; fails the test when one is still running after `timeout`
  /// (the store's, 1 s by default).
  public func finish(timeout: Duration? = nil, file: StaticString = #filePath, line: UInt = #line) async {
    await finish(timeout: timeout, at: SourceLocation(file: file, line: line))
  }

  /// `finish(timeout:file:line:)` for a host whose caller's place is not Swift source.
  public func finish(timeout: Duration?, at location: SourceLocation) async {
    let duration = timeout ?? self.timeout
    await Task.megaYield()
    guard await !storeTask.finish(timeout: duration) else { return }
    let advice =
      duration != self.timeout
      ? "try increasing the duration of this assertion's \"timeout\""
      : "configure this assertion with an explicit \"timeout\""
    fail(
      """
      Expected task to finish, but it is still in-flight\(duration > .zero ? " after \(seconds(duration))" : "").

      If this task delivers its action using a clock (a sleep, a debounce…), make sure that you wait \
      enough time for it to perform its work: with a test clock, advance it so that the effects may \
      complete, or use an immediate clock. Otherwise, \(advice).
      """, location)
  }

  /// Whether `cancel()` was called on this task.
  public var isCancelled: Bool { storeTask.isCancelled }

  /// Equal when they are the same send's effects.
  public nonisolated static func == (lhs: TestStoreTask, rhs: TestStoreTask) -> Bool { lhs.storeTask == rhs.storeTask }

  /// Hashes the send's identity.
  public nonisolated func hash(into hasher: inout Hasher) { hasher.combine(storeTask) }
}
