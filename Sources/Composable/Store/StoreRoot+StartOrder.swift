extension StoreRoot {
  /// An effect task's first turn, in the order the effects were made: a task whose turn comes
  /// before an older one's waits for it. The main actor runs jobs in the order they are
  /// enqueued, but not every task's first job is enqueued in the order the tasks were made (a
  /// concatenation's and a run's differ in priority), and the order of first turns is the order
  /// in which effects begin to sleep: two sleeps due at the same instant then woke in either order
  /// (seen under load: one run in a few hundred). Effects of one send start in the order they
  /// were returned, every time.
  func beginInOrder(_ taskID: Int) async {
    if startQueueHead < startQueue.count, startQueue[startQueueHead] != taskID {
      await withCheckedContinuation { startWaiters[taskID] = $0 }
    }
    tasksToBegin.remove(taskID)
    began(taskID)
    advanceStartQueue()
    startNextInOrder()
  }

  /// Starts the driven effects (`Effect.driven`) whose turn it is, each to its first suspension,
  /// in one main-actor job, up to the first task in the queue (whose turn comes next). Effects
  /// those start wait for the next job, as a task would: effects that start effects without end
  /// take turns with everything else on the main actor.
  func startDrivenEffects() {
    drivenStartsScheduled = false
    let madeBefore = nextTaskID
    while startQueueHead < startQueue.count {
      let taskID = startQueue[startQueueHead]
      if taskID >= madeBefore {
        scheduleDrivenStarts()
        return
      }
      // A task's turn comes next; a driven effect cancelled before its turn has none.
      if tasksToBegin.contains(taskID) { break }
      let start = drivenStarts.removeValue(forKey: taskID)
      if start != nil { began(taskID) }
      advanceStartQueue()
      start?()
    }
    startNextInOrder()
  }

  /// One main-actor job to start the driven effects waiting (see `startDrivenEffects`): one for
  /// every effect a burst of sends made, not one each.
  func scheduleDrivenStarts() {
    guard !drivenStartsScheduled else { return }
    drivenStartsScheduled = true
    let link = self.link
    Task { @MainActor in link.root?.startDrivenEffects() }
  }

  /// The next effect's turn, after a task's: a waiting task is resumed now (it runs when this task
  /// suspends); driven effects start in a job of their own.
  private func startNextInOrder() {
    guard startQueueHead < startQueue.count else { return }
    let next = startQueue[startQueueHead]
    if let waiter = startWaiters.removeValue(forKey: next) {
      waiter.resume()
    } else if !tasksToBegin.contains(next) {
      scheduleDrivenStarts()
    }
  }

  /// Moves the start queue past driven effects cancelled before their turn, so that a burst of
  /// effects started and cancelled before the main actor had a turn leaves nothing behind.
  func skipCancelledStarts() {
    var skipped = false
    while startQueueHead < startQueue.count {
      let taskID = startQueue[startQueueHead]
      guard drivenStarts[taskID] == nil, !tasksToBegin.contains(taskID) else { break }
      advanceStartQueue()
      skipped = true
    }
    if skipped { startNextInOrder() }
  }

  private func advanceStartQueue() {
    startQueueHead += 1
    if startQueueHead >= 1024 && startQueueHead * 2 >= startQueue.count {
      startQueue.removeFirst(startQueueHead)
      startQueueHead = 0
    }
  }
}
