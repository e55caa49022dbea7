/// Typed per-state storage (as mlua's `app_data`): what a layer above keeps for one state (relua's
/// feature host, say) lives with the state instead of in a process-wide table keyed by it. One
/// value per type; dropped when the state closes, after its `onClose` handlers have run.
extension LuaState {
  /// The value of type `T` kept for this state, if any.
  package func appData<T>(_: T.Type) -> T? {
    appDataStorage[ObjectIdentifier(T.self)] as? T
  }

  /// Keeps `value` for this state (nil forgets it), replacing the value of its type. Ignored on a
  /// closed state: nothing would drop it again.
  package func setAppData<T>(_ value: T?) {
    guard !isClosed else { return }
    appDataStorage[ObjectIdentifier(T.self)] = value
  }
}
