/// What a host recording a root store's session hears: a `TestStore` asserting each action, a
/// REPL's inspector writing the session down. A root makes them when a host first sets one
/// (`StoreRoot.recordingHooks`): a store nobody records carries none.
@MainActor
@usableFromInline
final class StoreRecordingHooks<Action> {
  /// Called after each action is reduced, with whether it came from an effect.
  @usableFromInline var didReduce: ((Action, _ received: Bool) -> Void)?
  /// Called when a failed send's state was restored (what `didReduce` saw of it never happened).
  var didRollBack: (() -> Void)?
  /// Called when a host cancels effects (`Store.cancelEffect`: its id; `Store.cancelAllEffects`: nil).
  var didCancelFromHost: ((Int?) -> Void)?

  init() {}
}
