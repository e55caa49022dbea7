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

  /// Whether the state must be brought up to date (`settle`) before anyone outside a reducer reads
  /// it: a host that keeps parts of the state up to date lazily sets it (the Lua host's shared
  /// holders, written once each and copied into every other holder only when the state is read).
  /// A stored flag, not an overridable property: the store tests it on every read of its state.
  @exclusivity(unchecked) public final var isUnsettled = false

  /// Brings `state` up to date (see `isUnsettled`, which the store clears before calling this).
  /// Called between actions too (a recording's or a test store's look at each action's state),
  /// where what it writes is part of the running send.
  open func settle(_ state: inout State) {}
}
