/// How deep state may nest. Every walk over a `Value` — JSON in and out, printing, diffs, pushing
/// to Lua, equality, even its release — recurses once per level, so a state nested without bound
/// (a 20,000-deep JSON array, a view chain `v.x = {}; v = v.x` in a loop) would overflow the
/// thread's stack and take the host down. The bound is enforced wherever a `Value` is made from
/// outside: JSON, Lua tables, and state views written into the state.
extension Value {
  /// Tables within tables, the outermost counting 1 (Lua's own C-call bound is 200 as well).
  package static let maxDepth = 200

  /// The message for a value that nests too deep.
  static var tooDeepMessage: String { "state nests more than \(maxDepth) tables deep" }

  /// Whether the value nests more than `limit` containers deep (a scalar nests 0, `{}` 1). Walks
  /// what it must to answer, and never recurses more than `limit + 1` levels.
  func nests(deeperThan limit: Int) -> Bool {
    switch self {
    case .null, .boolean, .integer, .float, .string: return false
    case .array(let elements): return limit < 1 || elements.contains { $0.nests(deeperThan: limit - 1) }
    case .identified(let collection): return limit < 1 || collection.elements.contains { $0.nests(deeperThan: limit - 1) }
    case .record(let record): return limit < 1 || record.fields.contains { $0.value.nests(deeperThan: limit - 1) }
    }
  }
}
