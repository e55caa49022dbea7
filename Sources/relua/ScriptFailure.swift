import Composable
import Lua

/// How a failed script is reported on standard error: what went wrong in words, where, and the
/// Lua traceback when there is one.
struct ScriptFailure {
  let text: String

  /// (The message is cut as any text is: `error(hugeString)` prints a screenful, see `Elision`.)
  init(_ error: LuaError) {
    let text = Self.words(error)
    self.text = Elision.standard.cut(text: text.message) + (text.traceback.map { "\n" + $0 } ?? "")
  }

  private static func words(_ error: LuaError) -> (message: String, traceback: String?) {
    switch error {
    case .syntax(let message, _):
      return ("relua: syntax error: \(message)", nil)
    case .runtime(let message, let traceback):
      return ("relua: \(message)", traceback)
    case .memory(let message):
      return ("relua: \(message)", nil)
    case .interrupted(_, let traceback):
      // Ctrl-C, as lua.c reports it: where the script was, and how it got there.
      return ("relua: \(error.description)", traceback)
    case .instructionLimit, .callback, .conversion, .argument, .closed:
      // (A Swift error's description is placed at the script line that raised it, with the traceback.)
      return ("relua: \(error.description)", nil)
    case .file(let message):
      return ("relua: \(message)", nil)
    }
  }
}
