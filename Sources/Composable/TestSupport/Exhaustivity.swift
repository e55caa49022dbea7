/// How strictly a TestStore checks: `.on` (every state change, received action and running effect must
/// be asserted) or `.off` (only what the test states is checked).
public enum Exhaustivity: Equatable, Sendable {
  case on
  case off
}
