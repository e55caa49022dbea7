import Composable

/// A screen's lifecycle, as a host that shows screens runs it (TCA's view modifier
/// `.task { await store.send(.onTask).finish() }`): a feature declares `task = "onTask"`, one of
/// its own actions; when a screen of it appears the host sends that action, and when the screen
/// goes (popped, dismissed, the store closed) the effects that send started are cancelled.
///
/// A screen is what `FeatureScreens` lists (the root, each presented destination and stack
/// element; an alert has no task). What a screen shows of the features it scopes (`relua.scope`,
/// a lens) is part of it: their tasks are sent with the screen's, its own first. A screen that
/// another covers stays shown (it has not gone).
///
/// The REPL keeps one of these for its store; `ReluaStore.runTask(of:)` is the same for a Swift
/// program's views; a test sends the action by hand, as a TCA test does.
@MainActor
package final class ScreenTasks {
  /// One task action a screen on show asks for.
  package struct Appearance: Equatable {
    /// The screen (its place, and for a presented destination its state's `id`: one replaced by
    /// another of the same kind with another id is a new screen), and the scoped child's key path
    /// for a task of a feature it scopes.
    package let identity: String
    /// The action, a path from the root: `onTask`, `path[id=0].detail.onTask`.
    package let action: String
  }

  /// The tasks of the screens shown at the last `update`, by identity (the task a send started,
  /// or none yet).
  private var shown: [String: StoreTask] = [:]

  package init() {}

  /// The task actions of the screens `state` shows, the root's first, each screen's own before
  /// those of the features it scopes.
  package static func appearances(of feature: FeatureDefinition, state: Value) -> [Appearance] {
    FeatureScreens.screens(of: feature, state: state).flatMap { appearances(of: $0) }
  }

  /// The task actions of one screen: its feature's, then those of the features it scopes.
  package static func appearances(of screen: FeatureScreen) -> [Appearance] {
    guard screen.alertStyle == nil else { return [] }
    var identity = screen.place
    // A presented destination is another one when its `id` changes (the store cancels the old
    // one's effects then, as TCA's ifLet over an Identifiable state); the root and a stack
    // element (its place names its stack id) stay the same screen whatever their state's `id`.
    let isPresented = !screen.place.isEmpty && screen.popID == nil
    if isPresented, case .record = screen.state, !screen.state[key: "id"].isNull {
      identity += "#" + screen.state[key: "id"].luaLiteral()
    }
    var found: [Appearance] = []
    collect(screen.feature, prefix: screen.actionPrefix, identity: identity, into: &found)
    return found
  }

  private static func collect(_ feature: FeatureDefinition, prefix: String, identity: String, into found: inout [Appearance]) {
    if let task = feature.task { found.append(Appearance(identity: identity, action: prefix + task)) }
    for child in feature.children where child.storage == .field || child.storage == .derived {
      guard case .feature(let scoped)? = child.onlyDestination, scoped !== feature else { continue }
      collect(scoped, prefix: prefix + child.key + ".", identity: identity + "/" + child.key, into: &found)
    }
  }

  /// Looks at the screens `state` shows: cancels the tasks of those that went since the last
  /// look, and returns the task actions of those that appeared (in screen order) for the host to
  /// send, handing each send's task to `started(_:for:)`.
  package func update(feature: FeatureDefinition, state: Value) -> [Appearance] {
    let now = Self.appearances(of: feature, state: state)
    let identities = Set(now.map(\.identity))
    for (identity, task) in shown where !identities.contains(identity) {
      task.cancel()
      shown[identity] = nil
    }
    let appeared = now.filter { shown[$0.identity] == nil }
    for appearance in appeared { shown[appearance.identity] = StoreTask() }
    return appeared
  }

  /// The effects the send of `appearance`'s action started: cancelled when its screen goes.
  package func started(_ task: StoreTask, for appearance: Appearance) {
    guard shown[appearance.identity] != nil else { return task.cancel() }
    shown[appearance.identity] = task
  }

  /// Cancels every screen's task and forgets the screens (the store closed or replaced): the next
  /// `update` finds them all appearing.
  package func cancelAll() {
    for task in shown.values { task.cancel() }
    shown = [:]
  }
}
