import Lua

/// How a failed script is reported on standard error: what went wrong in words, where, and the
/// Lua traceback when there is one.
struct ScriptFailure {
  let text: String

  init(_ error: LuaError) {
    switch error {
    case .syntax(let message, _):
      text = "relua: syntax error: \(message)"
    case .runtime(let message, let traceback):
      text = ["relua: \(message)", traceback].compactMap { $0 }.joined(separator: "\n")
    case .memory(let message):
      text = "relua: \(message)"
    case .interrupted(_, let traceback):
      // Ctrl-C, as lua.c reports it: where the script was, and how it got there.
      text = ["relua: \(error.description)", traceback].compactMap { $0 }.joined(separator: "\n")
    case .instructionLimit, .callback, .conversion, .argument, .closed:
      // (A Swift error's description is placed at the script line that raised it, with the traceback.)
      text = "relua: \(error.description)"
    case .file(let message):
      text = "relua: \(message)"
    }
  }
}
