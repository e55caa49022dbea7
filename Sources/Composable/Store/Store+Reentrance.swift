/// A send from inside one of the store's own reducers, for a host that warned of it itself
/// (naming its caller's line): queued after the current action, as `send` queues it, without the
/// engine's own warnings.
extension Store {
  /// Queues `action` after the action being reduced (root stores, during a send); returns false
  /// (and does nothing) when the store is not sending.
  @discardableResult
  package func enqueueWhileSending(_ action: Action) -> Bool {
    guard let root, root.isSending else { return false }
    root.buffer.append(action)
    return true
  }
}
