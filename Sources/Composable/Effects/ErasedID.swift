/// An id of any hashable type, erased once, when it is made: comparing two costs one dynamic cast.
/// (`AnyHashableSendable` builds two `AnyHashable`s on every comparison; that was half of what a
/// store spent finishing each of 10,000 cancellable effects.)
public struct ErasedID: Hashable, @unchecked Sendable, CustomStringConvertible {
  // Unchecked: made only from `Sendable` values.
  private let value: AnyHashable

  /// Erases `base` (an `ErasedID` or `AnyHashableSendable` is unwrapped, so equal ids stay equal).
  public init(_ base: some Hashable & Sendable) {
    if let erased = base as? ErasedID {
      self = erased
    } else if let sendable = base as? AnyHashableSendable {
      value = AnyHashable(sendable.base)
    } else {
      value = AnyHashable(base)
    }
  }

  /// The id as it was given.
  public var base: Any { value.base }

  /// The id as it was given, described.
  public var description: String { "\(value.base)" }
}
