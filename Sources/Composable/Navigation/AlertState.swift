import Foundation

/// State that is dismissed automatically once one of its actions was handled (alerts, dialogs).
public protocol EphemeralState {
  /// Distinguishes one alert from the next (a new alert set while handling the old one survives).
  var ephemeralID: UUID { get }
}

/// A button of an alert or dialog: a label and the action it sends (nil only dismisses).
public struct ButtonState<Action>: Identifiable {
  /// What a button does besides its action: cancels, or destroys something (shown apart).
  public enum Role: String, Sendable { case cancel, destructive }

  /// The button's identity (ignored by equality).
  public let id: UUID
  /// The button's role, if any.
  public var role: Role?
  /// The text on the button.
  public var label: String
  /// The action the button sends; nil: it only dismisses.
  public var action: Action?

  /// A button with a fresh identity.
  public init(role: Role? = nil, label: String, action: Action? = nil) {
    self.id = UUID()
    self.role = role
    self.label = label
    self.action = action
  }
}

extension ButtonState: Equatable where Action: Equatable {
  /// Equal when role, label and action are (the identity is ignored).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.role == rhs.role && lhs.label == rhs.label && lhs.action == rhs.action
  }
}
extension ButtonState: Sendable where Action: Sendable {}

/// An alert as state: title, message and buttons carrying actions. Equality ignores the identity.
public struct AlertState<Action>: Identifiable, EphemeralState {
  /// The alert's identity (ignored by equality).
  public let id: UUID
  /// The title.
  public var title: String
  /// The message under the title, if any.
  public var message: String?
  /// The buttons, in order.
  public var buttons: [ButtonState<Action>]

  /// An alert with a fresh identity.
  public init(title: String, message: String? = nil, buttons: [ButtonState<Action>] = []) {
    self.id = UUID()
    self.title = title
    self.message = message
    self.buttons = buttons
  }

  /// The alert's identity: a new alert is a new presentation.
  public var ephemeralID: UUID { id }
}

extension AlertState: Equatable where Action: Equatable {
  /// Equal when title, message and buttons are (the identity is ignored).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}
extension AlertState: Sendable where Action: Sendable {}

/// A confirmation dialog as state (an alert shown as a list of choices).
public struct ConfirmationDialogState<Action>: Identifiable, EphemeralState {
  /// The dialog's identity (ignored by equality).
  public let id: UUID
  /// The title.
  public var title: String
  /// The message under the title, if any.
  public var message: String?
  /// The choices, in order.
  public var buttons: [ButtonState<Action>]

  /// A dialog with a fresh identity.
  public init(title: String, message: String? = nil, buttons: [ButtonState<Action>] = []) {
    self.id = UUID()
    self.title = title
    self.message = message
    self.buttons = buttons
  }

  /// The dialog's identity: a new dialog is a new presentation.
  public var ephemeralID: UUID { id }
}

extension ConfirmationDialogState: Equatable where Action: Equatable {
  /// Equal when title, message and buttons are (the identity is ignored).
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
