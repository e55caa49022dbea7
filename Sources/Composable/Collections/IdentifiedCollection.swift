/// What `forEach` needs from a collection of child states: O(1) access by id, and a cheap way to tell
/// which ids went away during an action (to cancel their effects).
public protocol IdentifiedCollection<ID, Element> {
  /// The elements' id type.
  associatedtype ID: Hashable & Sendable
  /// The elements' type.
  associatedtype Element
  /// What `idSnapshot` takes (see `removedIDs(since:)`).
  associatedtype IDSnapshot

  /// The element with `id`; nil when there is none (writing nil removes it).
  subscript(id id: ID) -> Element? { get set }

  /// Runs `body` on the element with `id` in place; nil when there is none.
  mutating func withElement<R>(id: ID, _ body: (inout Element) -> R) -> R?

  /// Taken before an action; keep it cheap (no copy of the elements).
  var idSnapshot: IDSnapshot { get }

  /// The ids present at `snapshot` that are gone now.
  func removedIDs(since snapshot: IDSnapshot) -> [ID]

  /// The ids in order (for the navigation tree).
  var orderedIDs: [ID] { get }
}
