import Composable
import Lua

/// Errors of the feature host, worded for the script's author.
public enum ReluaError: Error, Equatable, CustomStringConvertible {
  /// A DSL call used wrongly (bad declaration, bad option).
  case usage(String)
  /// An action the feature does not accept, or a payload of the wrong type.
  case badAction(String)
  /// A Lua reducer raised; the state is unchanged. `message` starts with the script's `file:line`.
  case reducer(feature: String, action: String, message: String, traceback: String?)

  /// The error as a message for people.
  public var description: String {
    switch self {
    case .usage(let message), .badAction(let message): return message
    case .reducer(let feature, let action, let message, _):
      return "\(message) (in \(feature)'s reducer, handling '\(action)'; the state is unchanged)"
    }
  }

  /// The message plus the Lua traceback when there is one.
  public var fullDescription: String {
    if case .reducer(_, _, _, let traceback?) = self { return description + "\n" + traceback }
    return description
  }
}

extension ReluaError {
  /// An error's text as the REPL's `report` prints it, without its traceback or colour, cut as any
  /// text is: what an inspector's page shows (the REPL's and an embedded store's alike).
  package static func message(of error: any Error) -> String {
    let cut = Elision.standard.cut(text:)
    switch error {
    case let error as LuaError: return cut(error.message)
    case let error as ReluaError: return cut(error.fullDescription)
    default: return cut("\(error)")
    }
  }
}
