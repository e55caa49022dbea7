/// One step of a feature's place in the reducer tree: which child operator (`scope`) and which child
/// (`id`: an element id, a destination identity, a stack element id).
public struct NavigationID: Hashable, Sendable, CustomStringConvertible {
  /// The child operator (a `Scope`'s, a `forEach`'s…).
  public var scope: ErasedID
  /// The child within it (an element id, a destination identity, a stack element id).
  public var id: ErasedID

  /// A step to the child `id` of the operator `scope`.
  public init(scope: some Hashable & Sendable, id: some Hashable & Sendable) {
    self.scope = ErasedID(scope)
    self.id = ErasedID(id)
  }

  /// `scope#id`.
  public var description: String { "\(scope.base)#\(id.base)" }
}

/// A feature's place in the tree, from the root down.
public typealias NavigationPath = [NavigationID]

/// A cancellation id as the store sees it: the user's id qualified by the place of the feature that
/// returned the effect, so a child's ids never reach a sibling's or its parent's effects.
public struct CancelID: Hashable, Sendable, CustomStringConvertible {
  /// The place of the feature that returned the effect.
  public var path: NavigationPath
  /// The id the feature gave.
  public var id: ErasedID

  /// The id `id` of the feature at `path`.
  public init(path: NavigationPath = [], id: some Hashable & Sendable) {
    self.path = path
    self.id = ErasedID(id)
  }

  /// `path/id`, or the id alone at the root.
  public var description: String {
    path.isEmpty ? "\(id.base)" : "\(path.map(\.description).joined(separator: "/"))/\(id.base)"
  }
}
