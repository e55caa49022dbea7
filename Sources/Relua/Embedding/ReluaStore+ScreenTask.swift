import Composable

extension ReluaStore {
  /// Runs the task of a screen while it is shown (TCA's `.task { await store.send(.onTask).finish() }`):
  /// sends its `taskActions` (its feature's `task = "onTask"`, then those of the features it
  /// scopes) and waits until the effects they started have finished. When the calling task is
  /// cancelled — SwiftUI cancels a view's `.task` when the view disappears — those effects are
  /// cancelled: their actions never arrive.
  ///
  ///     ForEach(screens, id: \.place) { screen in
  ///       ScreenView(screen: screen, store: store)
  ///         .task { try? await store.runTask(of: screen) }
  ///     }
  ///
  /// A screen popped or dismissed by an action has its effects cancelled by the store anyway (as
  /// any child's that goes). A screen without a task returns at once. A reducer that raises
  /// throws, as `send` does, and the effects of the tasks sent before it are cancelled.
  public func runTask(of screen: ReluaScreen) async throws {
    var tasks: [StoreTask] = []
    do {
      for action in screen.taskActions { tasks.append(try send(action)) }
    } catch {
      for task in tasks { task.cancel() }
      throw error
    }
    for task in tasks { await task.finish() }
    if Task.isCancelled { for task in tasks { task.cancel() } }
  }
}
