/// An action for one element of a collection of child features.
public enum IdentifiedAction<ID: Hashable & Sendable, Action> {
  /// The action `action` of the element with `id`.
  case element(id: ID, action: Action)

  /// The element's id.
  public var id: ID { switch self { case let .element(id, _): id } }
  /// The element's action.
  public var action: Action { switch self { case let .element(_, action): action } }
}

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Sendable where Action: Sendable {}
