/// How strictly a TestStore checks: `.on` (every state change, received action and running effect must
/// be asserted) or `.off` (only what the test states is checked). `.off(showSkippedAssertions: true)`
/// reports what an exhaustive store would have failed on, prefixed "Skipped assertions.", through
/// the reporter's `reportSkippedAssertions`: notes, not failures.
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change, received action and effect still running must be asserted.
  case on
  /// Only what the test states is checked; `showSkippedAssertions` reports the rest as notes.
  case off(showSkippedAssertions: Bool)

  /// Non-exhaustive, silently.
  public static let off = Self.off(showSkippedAssertions: false)
}
