import CustomDump

/// The state of a presented child (a sheet, an alert, one of several destinations), nil when nothing
/// is presented.
public struct PresentationState<State> {
  public var wrappedValue: State?

  public init(wrappedValue: State?) { self.wrappedValue = wrappedValue }
  public init(_ state: State?) { self.wrappedValue = state }

  public var isPresented: Bool { wrappedValue != nil }
}

extension PresentationState: ExpressibleByNilLiteral {
  public init(nilLiteral: ()) { self.wrappedValue = nil }
}

extension PresentationState: Equatable where State: Equatable {}
extension PresentationState: Hashable where State: Hashable {}
extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: CustomDumpReflectable {
  public var customDumpMirror: Mirror {
    Mirror(self, children: ["wrappedValue": wrappedValue as Any], displayStyle: .struct)
  }
}

/// The parent's action for a presented child: the child's own actions, or a request to dismiss it.
public enum PresentationAction<Action> {
  case presented(Action)
  case dismiss
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}
