/// One step of a feature's place in the reducer tree: which child operator (`scope`) and which child
/// (`id`: an element id, a destination identity, a stack element id).
public struct NavigationID: Hashable, Sendable, CustomStringConvertible {
  public var scope: ErasedID
  public var id: ErasedID

  public init(scope: some Hashable & Sendable, id: some Hashable & Sendable) {
    self.scope = ErasedID(scope)
    self.id = ErasedID(id)
  }

  public var description: String { "\(scope.base)#\(id.base)" }
}

/// A feature's place in the tree, from the root down.
public typealias NavigationPath = [NavigationID]

/// A cancellation id as the store sees it: the user's id qualified by the place of the feature that
/// returned the effect, so a child's ids never reach a sibling's or its parent's effects.
public struct CancelID: Hashable, Sendable, CustomStringConvertible {
  public var path: NavigationPath
  public var id: ErasedID

  public init(path: NavigationPath = [], id: some Hashable & Sendable) {
    self.path = path
    self.id = ErasedID(id)
  }

  public var description: String {
    path.isEmpty ? "\(id.base)" : "\(path.map(\.description).joined(separator: "/"))/\(id.base)"
  }
}
