import Foundation

/// State that is dismissed automatically once one of its actions was handled (alerts, dialogs).
public protocol EphemeralState {
  /// Distinguishes one alert from the next (a new alert set while handling the old one survives).
  var ephemeralID: UUID { get }
}

/// A button of an alert or dialog: a label and the action it sends (nil only dismisses).
public struct ButtonState<Action>: Identifiable {
  public enum Role: String, Sendable { case cancel, destructive }

  public let id: UUID
  public var role: Role?
  public var label: String
  public var action: Action?

  public init(role: Role? = nil, label: String, action: Action? = nil) {
    self.id = UUID()
    self.role = role
    self.label = label
    self.action = action
  }
}

extension ButtonState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.role == rhs.role && lhs.label == rhs.label && lhs.action == rhs.action
  }
}
extension ButtonState: Sendable where Action: Sendable {}

/// An alert as state: title, message and buttons carrying actions. Equality ignores the identity.
public struct AlertState<Action>: Identifiable, EphemeralState {
  public let id: UUID
  public var title: String
  public var message: String?
  public var buttons: [ButtonState<Action>]

  public init(title: String, message: String? = nil, buttons: [ButtonState<Action>] = []) {
    self.id = UUID()
    self.title = title
    self.message = message
    self.buttons = buttons
  }

  public var ephemeralID: UUID { id }
}

extension AlertState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}
extension AlertState: Sendable where Action: Sendable {}

/// A confirmation dialog as state (an alert shown as a list of choices).
public struct ConfirmationDialogState<Action>: Identifiable, EphemeralState {
  public let id: UUID
  public var title: String
  public var message: String?
  public var buttons: [ButtonState<Action>]

  public init(title: String, message: String? = nil, buttons: [ButtonState<Action>] = []) {
    self.id = UUID()
    self.title = title
    self.message = message
    self.buttons = buttons
  }

  public var ephemeralID: UUID { id }
}

extension ConfirmationDialogState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}
extension ConfirmationDialogState: Sendable where Action: Sendable {}

/// The ephemeral value inside `value`: itself, or the payload of an enum case (a destination enum
/// with an `.alert(AlertState)` case).
func ephemeralState(in value: Any) -> (any EphemeralState)? {
  if let ephemeral = value as? any EphemeralState { return ephemeral }
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum, let payload = mirror.children.first?.value else { return nil }
  return payload as? any EphemeralState
}
