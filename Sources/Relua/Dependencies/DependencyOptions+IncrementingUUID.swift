import Lua

extension DependencyOptions {
  /// `uuid = { incrementing = n }`: the first UUID an incrementing generator gives (`relua.uuid(n)`),
  /// for a test whose state already holds ids below it; nil for a table of any other shape.
  static func incrementingStart(_ value: LuaValue) throws -> Int? {
    guard let table = value.tableValue else { return nil }
    let start = try table.rawGet("incrementing")
    if start.isNil { return nil }
    guard let first = start.integerValue, first >= 0, let count = try? table.pairs().count, count == 1 else {
      throw ReluaError.usage("deps.uuid: { incrementing = n } takes the first UUID's number, an integer >= 0 (relua.uuid(n)), and nothing else")
    }
    return Int(first)
  }
}
