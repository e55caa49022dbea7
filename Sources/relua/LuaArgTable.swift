import Lua

/// lua.c's global `arg`: the script at 0, its arguments from 1, and the words before it — the
/// program and its options, relua's own among them — at -1, -2, …, down to the program. Without
/// a script, the program is at 0 and every word after it from 1. It is set before `LUA_INIT`,
/// `-l` and `-e` run, which may read or change it; the script's `...` is read from it when the
/// script starts.
struct LuaArgTable {
  /// The words by index.
  let entries: [Int: String]

  /// `commandLine`: the process's words (the program first); `scriptArguments`: the words after
  /// the script, which are the command line's last ones.
  init(commandLine: [String], hasScript: Bool, scriptArguments: [String]) {
    let scriptIndex = hasScript ? commandLine.count - scriptArguments.count - 1 : 0
    var entries: [Int: String] = [:]
    for (position, word) in commandLine.enumerated() { entries[position - scriptIndex] = word }
    self.entries = entries
  }

  /// Sets the global `arg`.
  func install(in lua: LuaState) throws {
    let table = try lua.table()
    for (index, word) in entries { try table.rawSet(.integer(Int64(index)), .text(word)) }
    try lua.setGlobal("arg", .table(table))
  }

  /// The script's `...`: `arg[1]` to `arg[#arg]` as the global is when the script starts (a `-e`
  /// may have changed it); lua.c's error when it is no longer a table.
  static func scriptArguments(in lua: LuaState) throws -> [LuaValue] {
    guard case .table(let table) = try lua.global("arg") else {
      throw LuaError.runtime(message: "'arg' is not a table", traceback: nil)
    }
    let count = try table.length()
    guard count > 0 else { return [] }
    return try (1...count).map { try table.rawGet($0) }
  }
}
