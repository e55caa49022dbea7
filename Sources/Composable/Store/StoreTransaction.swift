/// A host's own way to make a send transactional without a snapshot. A snapshot shares every
/// container with the state, so the send's first write into a big collection copies it; a host
/// that logs its reducers' writes (the Lua host does) can undo exactly those instead.
///
/// The store calls `begin` before a transactional send, then `end` when it succeeded, or
/// `rollBack` with the state when a reducer failed (which must restore it and end the transaction).
public final class StoreTransaction<State> {
  // A class, so a send calls these without copying (and retaining) all three closures.
  public let begin: () -> Void
  public let end: () -> Void
  public let rollBack: (inout State) -> Void

  public init(begin: @escaping () -> Void, end: @escaping () -> Void, rollBack: @escaping (inout State) -> Void) {
    self.begin = begin
    self.end = end
    self.rollBack = rollBack
  }
}
