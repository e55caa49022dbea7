/// A host's own way to make a send transactional without a snapshot. A snapshot shares every
/// container with the state, so the send's first write into a big collection copies it; a host
/// that logs its reducers' writes (the Lua host does) can undo exactly those instead.
///
/// Subclass it: the store calls `begin()` before a transactional send, then `end()` when it
/// succeeded, or `rollBack(_:)` with the state when a reducer failed (which must restore it and
/// end the transaction). A class with methods rather than closures: a send calls them without
/// retaining closure contexts.
open class StoreTransaction<State> {
  /// A transaction that does nothing (subclasses override its methods).
  public init() {}

  /// Called before a transactional send runs its reducers.
  open func begin() {}
  /// Called after the send succeeded: forget what `begin()` kept.
  open func end() {}
  /// Called when a reducer failed: restore `state` as it was at `begin()`, and end the transaction.
  open func rollBack(_ state: inout State) {}
}
