/// What can go wrong building or converting a `Value`. Conversion errors carry the path of the
/// offending part (`state.results[3]`), which Lua code sees in the raised message.
public enum ValueError: Error, Equatable, CustomStringConvertible, Sendable {
  /// A Lua value that cannot be state: functions, userdata, mixed or sparse tables, cycles...
  case conversion(path: String, message: String)
  /// An identified collection's rule was broken (missing or duplicate id) at a 0-based position.
  case identity(position: Int, message: String)
  /// JSON that is not valid or not representable.
  case json(String)

  /// The error as a message for people.
  public var description: String {
    switch self {
    case .conversion(let path, let message): return "\(path): \(message)"
    case .identity(let position, let message): return "\(message) (at position \(position + 1))"
    case .json(let message): return "JSON: \(message)"
    }
  }
}
