import Lua

extension LuaError {
  /// A syntax error at the end of the text: more input may complete it.
  var isIncompleteInput: Bool {
    if case .syntax(_, let incomplete) = self { return incomplete }
    return false
  }
}
