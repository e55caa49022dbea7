/// An action that sets one field of the state by path, so a feature needs no hand-written setter
/// actions: `.set(\.query, "tca")`. Equal when path and value are equal.
public struct BindingAction<Root>: CustomStringConvertible {
  /// The field the action sets.
  public let keyPath: PartialKeyPath<Root>
  let applyValue: (inout Root) -> Void
  let value: Any
  let isEqual: (Any) -> Bool
  let valueDescription: String

  /// Sets the field at `keyPath` to `value`: `.set(\.query, "tca")`.
  public static func set<Value: Equatable>(_ keyPath: WritableKeyPath<Root, Value>, _ value: Value) -> Self {
    BindingAction(
      keyPath: keyPath, applyValue: { $0[keyPath: keyPath] = value }, value: value,
      isEqual: { ($0 as? Value) == value }, valueDescription: String(reflecting: value))
  }

  /// A binding action for a path and setter that are not a key path (dynamic host state).
  public static func set(
    path: PartialKeyPath<Root>, value: Any, description: String, isEqual: @escaping (Any) -> Bool,
    apply: @escaping (inout Root) -> Void
  ) -> Self {
    BindingAction(keyPath: path, applyValue: apply, value: value, isEqual: isEqual, valueDescription: description)
  }

  /// Whether this action sets `keyPath` (for reacting after the binding reducer: `if action.is(\.query)`).
  public func `is`(_ keyPath: PartialKeyPath<Root>) -> Bool { self.keyPath == keyPath }

  /// The value set, when it is of type `Value`.
  public func value<Value>(as _: Value.Type = Value.self) -> Value? { value as? Value }

  /// Writes the value into `state`.
  public func apply(to state: inout Root) { applyValue(&state) }

  /// `.set(keyPath, value)`.
  public var description: String { ".set(\(keyPath), \(valueDescription))" }
}

extension BindingAction: Equatable {
  /// Equal when they set the same field to equal values.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.keyPath == rhs.keyPath && lhs.isEqual(rhs.value) }
}

/// Applies binding actions to the state; put it before the feature's own reducer so that reducer sees
/// the new value.
public struct BindingReducer<State, Action>: Reducer {
  let toBindingAction: (Action) -> BindingAction<State>?

  /// A binding reducer for the actions `toBindingAction` finds a binding action in.
  public init(action toBindingAction: @escaping (Action) -> BindingAction<State>?) {
    self.toBindingAction = toBindingAction
  }

  /// Applies the action's binding, if it has one; no effect.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    toBindingAction(action)?.apply(to: &state)
    return .none
  }
}

/// An action type with a binding case.
public protocol BindableAction {
  /// The state the binding actions set.
  associatedtype State
  /// The binding case: the action carrying `action`.
  static func binding(_ action: BindingAction<State>) -> Self
  /// The binding action this action carries, if it is the binding case.
  var binding: BindingAction<State>? { get }
}

extension BindingReducer where Action: BindableAction, Action.State == State {
  /// A binding reducer for a `BindableAction`'s binding case.
  public init() { self.init(action: { $0.binding }) }
}
