/// One screen in the navigation tree derived from state: the root, a presented destination, or a stack
/// element, with what it presents in turn. `state` is the screen's own state (for rendering).
public struct NavigationNode: CustomStringConvertible {
  /// What kind of screen a node is.
  public enum Kind: String, Sendable { case root, destination, stackElement }

  /// The root, a presented destination or a stack element.
  public var kind: Kind
  /// The operator's place and the child's identity (destination identity or stack element id).
  public var id: NavigationID
  /// The screen's own state.
  public var state: Any
  /// What this screen presents, in the order presented.
  public var children: [NavigationNode]

  /// A node of a navigation tree.
  public init(kind: Kind, id: NavigationID, state: Any, children: [NavigationNode] = []) {
    self.kind = kind
    self.id = id
    self.state = state
    self.children = children
  }

  /// The nodes from the root down to the deepest first-presented screen (what is on top).
  public var path: [NavigationNode] {
    [self] + (children.last?.path ?? [])
  }

  /// The tree, one node a line (`kind id`), indented by depth.
  public var description: String { render(indent: "") }

  private func render(indent: String) -> String {
    ([indent + "\(kind.rawValue) \(id.id.base)"] + children.map { $0.render(indent: indent + "  ") })
      .joined(separator: "\n")
  }
}
