/// A store root as its effects and waiters hold it: without keeping it alive and without a weak
/// reference. (A weak reference gives an object a side table, after which every retain and release
/// of it takes the runtime's slow path; the root is retained several times per send.) The root
/// clears `root` when it goes; all of this happens on the main actor.
@MainActor
final class StoreRootLink<State, Action> {
  unowned(unsafe) var root: StoreRoot<State, Action>?
  init(_ root: StoreRoot<State, Action>) { self.root = root }
}

extension StoreRootLink: @MainActor DrivenEffectEndObserver {
  /// A driven effect ended: its bookkeeping goes.
  func drivenEffectEnded(id taskID: Int) {
    guard let root else { return }
    if root.drivenStarts.removeValue(forKey: taskID) != nil { root.skipCancelledStarts() }
    root.finished(taskID)
    root.taskEnded()
  }
}
