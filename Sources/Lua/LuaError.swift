/// Everything that can go wrong in the Lua layer, typed so callers can react to each kind.
public enum LuaError: Error, CustomStringConvertible {
  /// The chunk does not compile. `incompleteInput` is true when the parser stopped at the end of
  /// the input (`... near <eof>`), so a REPL can ask for another line.
  case syntax(message: String, incompleteInput: Bool)
  /// A Lua error. The message keeps Lua's `chunk:line:` prefix; the traceback is Lua's
  /// "stack traceback:" text when one was captured.
  case runtime(message: String, traceback: String?)
  /// An allocation failed: the state's memory limit (the message says so) or the system.
  case memory(message: String)
  /// The per-call instruction budget was spent. `location` is the `chunk:line` the script was
  /// stopped at, when it was in Lua code.
  case instructionLimit(location: String?)
  /// `LuaState.interrupt()` (or the interrupt handle) stopped the running code at `location`.
  /// `traceback`: Lua's, when one was captured (not part of `description`).
  case interrupted(location: String?, traceback: String? = nil)
  /// A Swift function called from Lua threw this error; it travelled through Lua unchanged.
  /// `location`: the `chunk:line` of the script code that called the function (Lua code of the
  /// host's own chunks, named `=[…]`, is passed over), when known; in Lua the error's message
  /// starts with it, as Lua's own errors do. `traceback`: Lua's, when one was captured.
  case callback(any Error, location: String? = nil, traceback: String? = nil)
  /// A Lua value could not be converted to the requested Swift type (or vice versa).
  case conversion(String)
  /// A bad argument to a Swift function called from Lua. Raised in Lua as
  /// `bad argument #position to 'name' (message)`.
  case argument(position: Int, message: String)
  /// A file could not be read.
  case file(String)
  /// The state was closed; the value or reference belongs to a state that no longer exists.
  case closed

  /// The message, with the traceback after it when one was captured.
  public var description: String {
    switch self {
    case .syntax(let message, _): return "syntax error: \(message)"
    case .runtime(let message, let traceback):
      guard let traceback, !traceback.isEmpty else { return message }
      return "\(message)\n\(traceback)"
    case .memory(let message): return message
    case .instructionLimit(let location): return LuaError.located(LuaError.instructionLimitMessage, at: location)
    case .interrupted(let location, _): return LuaError.located(LuaError.interruptedMessage, at: location)
    case .callback(let error, let location, let traceback):
      let message = LuaError.located(String(describing: error), at: location)
      guard let traceback, !traceback.isEmpty else { return message }
      return "\(message)\n\(traceback)"
    case .conversion(let message): return "conversion error: \(message)"
    case .argument(let position, let message): return "bad argument #\(position) (\(message))"
    case .file(let message): return message
    case .closed: return "the Lua state is closed"
    }
  }

  /// The message alone, without traceback.
  public var message: String {
    switch self {
    case .syntax(let message, _), .runtime(let message, _), .memory(let message): return message
    case .callback(let error, let location, _): return LuaError.located(String(describing: error), at: location)
    default: return description
    }
  }

  /// Lua's traceback of the failed call, when one was captured.
  public var traceback: String? {
    switch self {
    case .runtime(_, let traceback), .callback(_, _, let traceback), .interrupted(_, let traceback): return traceback
    default: return nil
    }
  }

  static let instructionLimitMessage = "instruction budget exhausted"
  static let interruptedMessage = "interrupted!"

  private static func located(_ message: String, at location: String?) -> String {
    guard let location else { return message }
    return "\(location): \(message)"
  }

  /// Splits the `chunk:line: ` prefix the shim puts before `message` (nil when there is none).
  static func location(in raised: String, before message: String) -> String? {
    guard raised.hasSuffix(message) else { return nil }
    let prefix = raised.dropLast(message.count)
    guard prefix.hasSuffix(": ") else { return nil }
    return String(prefix.dropLast(2))
  }
}
