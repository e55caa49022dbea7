/// A test store whose root feature dismissed itself, as TCA's: `dismiss()` from one of the root
/// feature's effects sets `isDismissed`, cancels the effects still in flight (they are skipped:
/// no "still running" failure), and a later send fails the test.
extension TestStore {
  /// Whether the root feature dismissed itself (TCA's `TestStore.isDismissed`).
  public var isDismissed: Bool { root.isDismissed }

  /// A send after the store was dismissed: a failure, and nothing sent.
  func refuseSendAfterDismissal(_ action: Action, at location: SourceLocation) -> TestStoreTask {
    fail(
      "Can't send action to dismissed test store: \(describeAction(action)). (The store dismissed itself: dismiss() at \(root.dismissedAt ?? "?").)",
      at: location)
    return TestStoreTask(storeTask: root.makeTask(root.nextTaskID..<root.nextTaskID), timeout: timeout) { [weak self] message, location in
      self?.fail(message, at: location)
    }
  }
}
