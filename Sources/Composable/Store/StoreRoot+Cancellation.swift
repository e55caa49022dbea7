/// How a root store cancels effects: by cancel id (at each prefix of its place, see `register`),
/// by the place of a feature that goes away, or all of them.
extension StoreRoot {
  func cancel(_ id: CancelID) {
    guard let group = cancellables.removeValue(forKey: id) else { return }
    group.isRegistered = false
    let taskIDs = group.tasks
    group.tasks = []
    for taskID in taskIDs {
      inFlight[taskID]?.runner.cancel()
      finished(taskID)
    }
  }

  func unregister(_ group: CancelGroup) {
    cancellables[group.key] = nil
    group.isRegistered = false
  }

  func cancelSubtree(_ path: NavigationPath) {
    for id in cancellables.keys where id.path.starts(with: path) { cancel(id) }
  }

  func cancelAllEffects() {
    for (taskID, entry) in inFlight {
      entry.runner.cancel()
      finished(taskID)
    }
  }
}
