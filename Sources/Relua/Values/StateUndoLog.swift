/// The writes of one state session, oldest first, each with what it replaced. Rolling back undoes
/// them newest first, which restores the state exactly. It costs what the session touched (no
/// whole-state snapshot: a snapshot would share every container with the state and force a
/// copy-on-write copy of any big container the reducer then writes into).
struct StateUndoLog {
  struct Entry {
    /// The container written into (shared with the view's path: no allocation).
    let containerPath: ValuePath
    let component: PathComponent
    let change: SlotChange
    /// What the slot held before (`.null` when it was absent).
    let old: Value
  }

  private(set) var entries: [Entry] = []

  var isEmpty: Bool { entries.isEmpty }

  mutating func record(_ entry: Entry) { entries.append(entry) }

  /// Empties the log, keeping its storage (one by one: `removeAll(keepingCapacity:)` costs more
  /// for the usual one or two entries).
  mutating func clear() { while !entries.isEmpty { entries.removeLast() } }

  /// Appends `other`'s entries with `base` in front of their paths (a session's writes, moved to
  /// where its value sits in the whole state).
  mutating func append(_ other: StateUndoLog, at base: ValuePath) {
    if base.isEmpty {
      for entry in other.entries { entries.append(entry) }  // cheaper than `append(contentsOf:)` for a few
      return
    }
    for entry in other.entries {
      entries.append(Entry(containerPath: base + entry.containerPath, component: entry.component, change: entry.change, old: entry.old))
    }
  }

  /// Undoes every write, newest first, in place.
  mutating func rollBack(_ value: inout Value) {
    for entry in entries.reversed() {
      value.modify(at: entry.containerPath) { $0.undo(entry.change, at: entry.component, old: entry.old) }
    }
    entries.removeAll(keepingCapacity: true)
  }
}
