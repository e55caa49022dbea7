/// The writes made through state views, oldest first, each with what it replaced. Rolling back
/// undoes them newest first, which restores the state exactly. It costs what the reducers touched
/// (no whole-state snapshot: a snapshot would share every container with the state and force a
/// copy-on-write copy of any big container the reducer then writes into).
///
/// One log serves a whole send: each session (one reducer call) appends its writes with paths from
/// its own state. A session that fails undoes its own writes; one that succeeds inside a
/// transaction keeps them, noting once where its state sits in the whole state (its anchor), so the
/// transaction can undo everything later; outside a transaction they are dropped. Entries are never
/// copied or rewritten on the way.
struct StateUndoLog {
  struct Entry {
    /// The container written into, from the session's state (shared with the view's path).
    let containerPath: ValuePath
    let component: PathComponent
    let change: SlotChange
    /// What the slot held before (`.null` when it was absent).
    let old: Value
  }

  /// Kept entries from `start` on (up to the next segment) have paths from `anchor`.
  private struct Segment {
    let start: Int
    let anchor: ValuePath
  }

  private var entries: [Entry] = []
  private var segments: [Segment] = []
  /// The first entry of the running session.
  private var sessionStart = 0

  /// Writes of the running session so far.
  var sessionCount: Int { entries.count - sessionStart }

  mutating func record(_ entry: Entry) { entries.append(entry) }

  /// Starts a session: its writes are the entries appended from now on.
  mutating func beginSession() { sessionStart = entries.count }

  /// Ends a session that succeeded: its writes are kept with `anchor` (where its state sits in the
  /// whole state), asked only if it wrote; nil drops them.
  mutating func keepSession(anchor: () -> ValuePath?) {
    guard entries.count > sessionStart else { return }
    if let anchor = anchor() {
      segments.append(Segment(start: sessionStart, anchor: anchor))
    } else {
      truncate(to: sessionStart)
    }
  }

  /// Undoes the running session's writes on `value` (its state), newest first, and forgets them.
  mutating func rollBackSession(_ value: inout Value) {
    var index = entries.count
    while index > sessionStart {
      index -= 1
      let entry = entries[index]
      value.modify(at: entry.containerPath) { $0.undo(entry.change, at: entry.component, old: entry.old) }
    }
    truncate(to: sessionStart)
  }

  /// Records a write made outside the views at `containerPath` from the whole state (a binding).
  mutating func recordOutsideSession(_ entry: Entry) {
    segments.append(Segment(start: entries.count, anchor: []))
    entries.append(entry)
    sessionStart = entries.count
  }

  /// Undoes every kept write on `root` (the whole state), newest first, and forgets them.
  mutating func rollBackAll(_ root: inout Value) {
    var end = entries.count
    while let segment = segments.popLast() {
      var index = end
      while index > segment.start {
        index -= 1
        let entry = entries[index]
        root.modify(at: segment.anchor) {
          $0.modify(at: entry.containerPath) { $0.undo(entry.change, at: entry.component, old: entry.old) }
        }
      }
      end = segment.start
    }
    clear()
  }

  /// Forgets everything, keeping the storage (one by one: `removeAll(keepingCapacity:)` costs
  /// more for the usual one or two entries).
  mutating func clear() {
    sessionStart = 0
    if entries.isEmpty { return }
    while !entries.isEmpty { entries.removeLast() }
    while !segments.isEmpty { segments.removeLast() }
  }

  private mutating func truncate(to count: Int) {
    while entries.count > count { entries.removeLast() }
    sessionStart = count
  }
}
