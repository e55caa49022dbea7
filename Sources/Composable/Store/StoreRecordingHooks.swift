/// What a host recording a root store's session hears besides each reduced action (the root's
/// `didReduce`, read on every action, stays on the root): a `TestStore`, a REPL's inspector
/// writing the session down. A root makes them when a host first sets one
/// (`StoreRoot.recordingHooks`): a store nobody records carries none. Not generic: no metadata
/// look-up in unspecialized code.
@MainActor
final class StoreRecordingHooks {
  /// Called when a failed send's state was restored (what `didReduce` saw of it never happened).
  var didRollBack: (() -> Void)?
  /// Called when a host cancels effects (`Store.cancelEffect`: its id; `Store.cancelAllEffects`: nil).
  var didCancelFromHost: ((Int?) -> Void)?
}
