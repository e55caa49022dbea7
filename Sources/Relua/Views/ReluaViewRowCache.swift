/// The rows a `relua.ui.forEach` node drew last, per host: a row whose element is unchanged is
/// reused without calling its feature's `view` (docs/DESIGN-NOTES.md, "Views").
///
/// A group is one forEach node of one screen (the screen's feature, its action prefix and the
/// collection's key); it holds the rows of its last read only, so it never outgrows its
/// collection. Entries carry the row feature they were drawn by: a reloaded feature (a new
/// ``FeatureDefinition``) never reuses a row the old code drew.
@MainActor
package final class ReluaViewRowCache {
  /// More forEach nodes than any set of screens shows at once: past it, the cache starts over.
  static let maxGroups = 256

  /// One row as it was drawn.
  struct Entry {
    /// The element the row was drawn from.
    let element: Value
    /// The feature whose `view` drew it.
    let feature: FeatureDefinition
    /// The row, its `revision` set.
    let row: ReluaViewRow
    /// The nodes in it (counted against the reader's limit when reused).
    let nodeCount: Int
  }

  struct GroupKey: Hashable {
    let owner: ObjectIdentifier
    let place: String
  }

  private var groups: [GroupKey: [Value: Entry]] = [:]
  private var lastRevision: UInt64 = 0
  /// How many rows were drawn by calling Lua, and how many reused (for tests and benchmarks).
  package private(set) var drawn = 0, reused = 0

  package init() {}

  /// A revision no row had before.
  func nextRevision() -> UInt64 {
    lastRevision &+= 1
    return lastRevision
  }

  /// The rows of `key`'s last read.
  func group(_ key: GroupKey) -> [Value: Entry] { groups[key] ?? [:] }

  /// Keeps `entries` (the rows just read) as the group's only rows.
  func replace(_ key: GroupKey, with entries: [Value: Entry], drawn: Int, reused: Int) {
    if groups[key] == nil, groups.count >= Self.maxGroups { groups.removeAll() }
    groups[key] = entries
    self.drawn += drawn
    self.reused += reused
  }

  /// Forgets every row (a reload of the feature code).
  package func removeAll() { groups.removeAll() }
}
