import Composable

/// A store of a Lua feature as a Swift program drives it (see `ReluaRuntime.makeStore`): send
/// actions by path (`"add"`, `"rows[id=3].toggle"`, `"destination.dismiss"`), read and observe the
/// state and the screens derived from it, wait for effects.
@MainActor
public final class ReluaStore {
  let object: LuaStoreObject

  init(_ object: LuaStoreObject) {
    self.object = object
    // The host presents the feature: its root's dismiss() dismisses this store (`isDismissed`).
    object.store.dismissesItself = true
  }

  /// Whether the feature dismissed itself: its root called `deps.dismiss()` from an effect, as a
  /// presented screen does when it is done (TCA's `dismiss`). The host closes the screen. The
  /// store's effects were cancelled when it was dismissed, and every later send is refused with a
  /// warning naming where the feature dismissed itself (`warnings`). Releasing the store cancels its
  /// effects too.
  public var isDismissed: Bool { object.store.isDismissed }

  /// The feature this store runs.
  public var feature: FeatureDefinition { object.feature }
  /// The state now.
  public var state: Value { object.store.state }

  /// The screens the state shows: the root, then each presented destination, alert and stack
  /// element, depth first (the last is on top).
  public var screens: [ReluaScreen] { FeatureScreens.screens(of: feature, state: state).map(ReluaScreen.init) }

  /// The runtime warnings so far (an effect's error, an action for an absent child, …).
  public var warnings: [String] { object.store.warnings.map(\.message) }

  /// Sends an action by name or path with its payload; validated as a typed one is (a bad name or
  /// payload throws, saying why). A reducer that raises throws its error and the state is as it
  /// was. Returns the effects the send started.
  @discardableResult
  public func send(_ action: String, _ payload: Value = .null) throws -> StoreTask {
    try object.send(action, payload: payload)
  }

  /// Posts `value` under `name` to the loops of `deps.notifications(name)`; how many it reached.
  @discardableResult
  public func post(_ name: String, _ value: Value = .null) -> Int { object.post(name, value) }

  /// Waits until no effect is running.
  public func waitForEffects() async { await object.store.waitForEffects() }

  /// The state now, then after each send that changed it, until the task iterating it is
  /// cancelled or the store goes.
  public var states: AsyncStream<Value> { changes { $0.state } }

  /// The screens now, then after each send that changed the state.
  public var screenChanges: AsyncStream<[ReluaScreen]> { changes { $0.screens } }

  private func changes<T: Sendable>(_ read: @escaping @MainActor (ReluaStore) -> T) -> AsyncStream<T> {
    let (stream, continuation) = AsyncStream<T>.makeStream(bufferingPolicy: .bufferingNewest(64))
    continuation.yield(read(self))
    var last = state
    let token = object.store.observeSends { [weak self] state in
      guard let self, state != last else { return }
      last = state
      continuation.yield(read(self))
    }
    nonisolated(unsafe) let held = token
    continuation.onTermination = { _ in Task { @MainActor in held.cancel() } }
    return stream
  }
}
