/// A root store's side of `StoreTask`: a send's effects are the task ids it took.
extension StoreRoot {
  /// The task of the effects started since `first` was the next task id.
  @inlinable
  func task(since first: Int) -> StoreTask {
    if nextTaskID == first { return StoreTask() }
    return makeTask(first..<nextTaskID)
  }

  /// A task for `ids`, even an empty range (a test store's task remembers its cancellation).
  @usableFromInline
  func makeTask(_ ids: Range<Int>) -> StoreTask {
    StoreTask(effects: StoreTaskEffects(owner: link, ids: ids))
  }

  func cancelTasks(_ ids: Range<Int>) {
    for taskID in ids {
      guard let entry = inFlight[taskID] else { continue }
      entry.runner.cancel()
      finished(taskID)
    }
  }

  func tasksFinished(_ ids: Range<Int>) -> Bool {
    !ids.contains { inFlight[$0] != nil }
  }
}

extension StoreRootLink: StoreTaskOwner {
  func cancelTasks(_ ids: Range<Int>) { root?.cancelTasks(ids) }

  func tasksFinished(_ ids: Range<Int>) -> Bool { root?.tasksFinished(ids) ?? true }

  func waitForTasks(_ ids: Range<Int>, timeout: Duration?) async -> Bool {
    guard let root else { return true }
    return await root.wait(until: { [self] in self.root?.tasksFinished(ids) ?? true }, timeout: timeout)
  }
}
