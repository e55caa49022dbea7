extension Value {
  /// Whether two values are the same as Lua sees them: a list is a list whether the engine keeps
  /// it identified or plain, and an empty table is empty whatever kind it was made (`{}` has none
  /// in Lua). What a Lua test store compares expected and actual states by: a reducer's `{}` and
  /// an expectation's `{}` must not differ by a kind no script can see.
  package func sameInLua(as other: Value) -> Bool {
    switch (self, other) {
    case (.record(let a), .record(let b)):
      guard a.count == b.count else { return false }
      for (x, y) in zip(a.fields, b.fields) where x.key != y.key || !x.value.sameInLua(as: y.value) { return false }
      return true
    default:
      guard let a = listElements, let b = other.listElements else { return self == other }
      guard a.count == b.count else { return false }
      for (x, y) in zip(a, b) where !x.sameInLua(as: y) { return false }
      return true
    }
  }

  /// The elements of a list as Lua sees one: an array, an identified collection, or an empty record.
  var listElements: [Value]? {
    switch self {
    case .array(let elements): return elements
    case .identified(let collection): return collection.elements
    case .record(let record) where record.isEmpty: return []
    default: return nil
    }
  }
}
