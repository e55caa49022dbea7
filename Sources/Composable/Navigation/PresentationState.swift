import CustomDump

/// The state of a presented child (a sheet, an alert, one of several destinations), nil when nothing
/// is presented.
public struct PresentationState<State> {
  /// The presented child's state; nil when nothing is presented.
  public var wrappedValue: State?

  /// Presents `wrappedValue` (nil: nothing).
  public init(wrappedValue: State?) { self.wrappedValue = wrappedValue }
  /// Presents `state` (nil: nothing).
  public init(_ state: State?) { self.wrappedValue = state }

  /// Whether a child is presented.
  public var isPresented: Bool { wrappedValue != nil }
}

extension PresentationState: ExpressibleByNilLiteral {
  /// Nothing presented.
  public init(nilLiteral: ()) { self.wrappedValue = nil }
}

extension PresentationState: Equatable where State: Equatable {}
extension PresentationState: Hashable where State: Hashable {}
extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: CustomDumpReflectable {
  /// Dumps as a struct with its `wrappedValue`.
  public var customDumpMirror: Mirror {
    Mirror(self, children: ["wrappedValue": wrappedValue as Any], displayStyle: .struct)
  }
}

/// The parent's action for a presented child: the child's own actions, or a request to dismiss it.
public enum PresentationAction<Action> {
  /// An action of the presented child.
  case presented(Action)
  /// Dismisses the child (its effects are cancelled).
  case dismiss
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}
