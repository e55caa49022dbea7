/// The rows a `relua.ui.forEach` node drew last, per host: a row whose element is unchanged is
/// reused without calling its feature's `view` (docs/DESIGN-NOTES.md, "Views").
///
/// A group is one forEach node of one screen (the screen's feature, its action prefix and the
/// collection's key); it holds the rows of its last read only, so it never outgrows its
/// collection. A group carries the row feature its rows were drawn by: a reloaded feature (a new
/// ``FeatureDefinition``) never reuses a row the old code drew.
@MainActor
package final class ReluaViewRowCache {
  /// More forEach nodes than any set of screens shows at once: past it, the cache starts over.
  static let maxGroups = 256

  /// The rows of one forEach node's last read, position by position.
  struct Group {
    /// The elements the rows were drawn from, in an array of the cache's own (see ``copy(of:)``);
    /// it keeps each element alive, so a storage compared against it is never a freed one.
    var elements: [Value]
    /// The feature whose `view` drew the rows.
    var feature: FeatureDefinition?
    /// The rows returned, each with its `revision`; shares its chunks with the tree returned.
    var rows: ReluaViewRows
    /// The nodes in each row (counted against the reader's limit when reused), and their sum.
    var nodeCounts: [Int]
    var totalNodes: Int
    /// The number of the newest write in the collection's log when it was read (see
    /// `ElementWriteLog`): the next read asks the log what was written since. Nil: none was logged.
    var newestWrite: UInt64?
    /// The rows' positions by id: made on first need, when the collection was reordered or grew.
    private var index: [Value: Int]?

    init(elements: [Value] = [], feature: FeatureDefinition? = nil, rows: ReluaViewRows = [], nodeCounts: [Int] = []) {
      self.elements = elements
      self.feature = feature
      self.rows = rows
      self.nodeCounts = nodeCounts
      self.totalNodes = nodeCounts.reduce(0, +)
    }

    /// `elements` in a new array: holding the state's own array would make the next send that
    /// changes the collection copy it whole (it would no longer be the state's alone).
    static func copy(of elements: [Value]) -> [Value] {
      var copy: [Value] = []
      copy.reserveCapacity(elements.count)
      copy.append(contentsOf: elements)
      return copy
    }

    /// The position of the row drawn from `element` itself (shared storage) at `position`.
    @inline(__always)
    func identical(at position: Int, _ element: Value) -> Int? {
      position < elements.count && elements[position].isIdentical(to: element) ? position : nil
    }

    /// The position of the row with `id`, if it was drawn from an element equal to `element`:
    /// the one at `position` when its id is that (a changed element in place: no index made).
    mutating func equal(id: Value, at position: Int, _ element: Value) -> Int? {
      if position < rows.count, rows[position].id == id { return reusable(position, element) }
      if index == nil {
        var made: [Value: Int] = [:]
        made.reserveCapacity(rows.count)
        for (position, row) in rows.enumerated() { made[row.id] = position }
        index = made
      }
      guard let found = index?[id] else { return nil }
      return reusable(found, element)
    }

    private func reusable(_ position: Int, _ element: Value) -> Int? {
      elements[position].isIdentical(to: element) || elements[position] == element ? position : nil
    }
  }

  struct GroupKey: Hashable {
    let owner: ObjectIdentifier
    let place: String
  }

  private var groups: [GroupKey: Group] = [:]
  private var lastRevision: UInt64 = 0
  /// How many rows were drawn by calling Lua, and how many reused (for tests and benchmarks).
  package private(set) var drawn = 0, reused = 0
  /// How many elements were looked at one by one (identity, id, ==): every element of a read that
  /// matched by position or id, only those whose bits differed in one read in place (for tests).
  package private(set) var examined = 0

  package init() {}

  /// A revision no row had before.
  func nextRevision() -> UInt64 {
    lastRevision &+= 1
    return lastRevision
  }

  /// The rows of `key`'s last read, taken out of the cache (so that changing them copies nothing
  /// the cache still holds); ``keep(_:as:drawn:reused:examined:)`` puts the new ones back. A read that
  /// fails leaves the group out: the next read draws every row again.
  func take(_ key: GroupKey) -> Group { groups.removeValue(forKey: key) ?? Group() }

  /// Keeps `group` (the rows just read) as `key`'s only rows.
  func keep(_ group: Group, as key: GroupKey, drawn: Int, reused: Int, examined: Int) {
    if groups.count >= Self.maxGroups { groups.removeAll() }
    groups[key] = group
    self.drawn += drawn
    self.reused += reused
    self.examined += examined
  }

  /// Forgets every row (a reload of the feature code).
  package func removeAll() { groups.removeAll() }
}
