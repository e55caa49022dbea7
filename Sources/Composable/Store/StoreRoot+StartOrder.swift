extension StoreRoot {
  /// An effect task's first turn, in the order the tasks were made: a task whose turn comes
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
    began(taskID)
    startQueueHead += 1
    if startQueueHead >= 1024 && startQueueHead * 2 >= startQueue.count {
      startQueue.removeFirst(startQueueHead)
      startQueueHead = 0
    }
    // The next one's turn: resumed now, it runs when this task suspends.
    if startQueueHead < startQueue.count, let next = startWaiters.removeValue(forKey: startQueue[startQueueHead]) {
      next.resume()
    }
  }
}
