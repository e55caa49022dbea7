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

  /// One row as it was drawn (a class: a reused row's entry is one retain, not one per field).
  final class Entry {
    /// The element the row was drawn from.
    let element: Value
    /// The feature whose `view` drew it.
    let feature: FeatureDefinition
    /// The row, its `revision` set.
    let row: ReluaViewRow
    /// The nodes in it (counted against the reader's limit when reused).
    let nodeCount: Int

    init(element: Value, feature: FeatureDefinition, row: ReluaViewRow, nodeCount: Int) {
      self.element = element
      self.feature = feature
      self.row = row
      self.nodeCount = nodeCount
    }
  }

  /// The rows of one forEach node's last read, in order. Looked up by position first (an
  /// unchanged element is at the same place and shares its storage: no hashing); by id, through
  /// an index made on first need, when the collection was reordered or grew.
  struct Group {
    let entries: [Entry]
    private var index: [Value: Int]?

    init(entries: [Entry]) { self.entries = entries }

    /// The entry at `position` if it was drawn from `element` itself (shared storage).
    @inline(__always)
    func identical(at position: Int, _ element: Value, _ feature: FeatureDefinition) -> Entry? {
      guard position < entries.count else { return nil }
      let entry = entries[position]
      return entry.feature === feature && entry.element.isIdentical(to: element) ? entry : nil
    }

    /// The entry of the element with `id`, if it was drawn from an equal element: the one at
    /// `position` when its id is that (a changed element in place: no index made).
    mutating func equal(id: Value, at position: Int, _ element: Value, _ feature: FeatureDefinition) -> Entry? {
      if position < entries.count, entries[position].row.id == id { return reusable(entries[position], element, feature) }
      if index == nil {
        var made: [Value: Int] = [:]
        made.reserveCapacity(entries.count)
        for (position, entry) in entries.enumerated() { made[entry.row.id] = position }
        index = made
      }
      guard let found = index?[id] else { return nil }
      return reusable(entries[found], element, feature)
    }

    private func reusable(_ entry: Entry, _ element: Value, _ feature: FeatureDefinition) -> Entry? {
      entry.feature === feature && (entry.element.isIdentical(to: element) || entry.element == element) ? entry : nil
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

  package init() {}

  /// A revision no row had before.
  func nextRevision() -> UInt64 {
    lastRevision &+= 1
    return lastRevision
  }

  /// The rows of `key`'s last read.
  func group(_ key: GroupKey) -> Group { groups[key] ?? Group(entries: []) }

  /// Keeps `entries` (the rows just read) as the group's only rows.
  func replace(_ key: GroupKey, with entries: [Entry], drawn: Int, reused: Int) {
    if groups[key] == nil, groups.count >= Self.maxGroups { groups.removeAll() }
    groups[key] = Group(entries: entries)
    self.drawn += drawn
    self.reused += reused
  }

  /// Forgets every row (a reload of the feature code).
  package func removeAll() { groups.removeAll() }
}
