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

  private enum Logged {
    case slot(Entry)
    /// The field at `position` of the session's own state (a record) held `old`, a number or a
    /// boolean: it holds no references, so forgetting the entry needs no destroying. (Positions
    /// stay right: undoing newest first gives back the record exactly as it was after this write.)
    case ownField(position: Int, old: Value)
  }

  /// Kept entries from `start` on (up to the next segment) have paths from `anchor`; entries
  /// before the first segment have paths from the whole state (a store whose own feature is the
  /// reducer that wrote needs no segment at all).
  private struct Segment {
    let start: Int
    let anchor: ValuePath
  }

  /// Shared by copies of the log (there are none: a `StateViews` holds its one log).
  private let entries = Entries()
  private var segments: [Segment] = []
  /// The first entry of the running session.
  private var sessionStart = 0

  /// Whether nothing is logged.
  var isEmpty: Bool { entries.count == 0 && segments.isEmpty }

  /// Writes of the running session so far.
  var sessionCount: Int { entries.count - sessionStart }

  mutating func record(_ entry: Entry) { entries.append(.slot(entry), holdsReferences: true) }

  /// Logs a write into the field at `position` of the session's own state, which held `old`: a
  /// number or a boolean (nothing else may be logged this way, see `Logged.ownField`).
  mutating func recordOwnField(at position: Int, old: Value) {
    entries.append(.ownField(position: position, old: old), holdsReferences: false)
  }

  /// Starts a session: its writes are the entries appended from now on.
  mutating func beginSession() { sessionStart = entries.count }

  /// Ends a session that succeeded: its writes are kept with `anchor` (where its state sits in the
  /// whole state); `.none` drops them.
  @inline(__always)
  mutating func keepSession(anchor: SessionAnchor) {
    guard entries.count > sessionStart else { return }
    let path: ValuePath
    switch anchor {
    case .none: return truncate(to: sessionStart)
    case .wholeState:
      // Entries from the whole state need a segment only after one that is not.
      if segments.isEmpty || segments[segments.count - 1].anchor.isEmpty { return }
      path = []
    case .path(let anchor):
      if anchor.isEmpty, segments.isEmpty || segments[segments.count - 1].anchor.isEmpty { return }
      path = anchor
    }
    segments.append(Segment(start: sessionStart, anchor: path))
  }

  /// Undoes the running session's writes on `value` (its state), newest first, and forgets them.
  mutating func rollBackSession(_ value: inout Value) {
    var index = entries.count
    while index > sessionStart {
      index -= 1
      Self.undo(entries[index], in: &value)
    }
    truncate(to: sessionStart)
  }

  /// Records a write made outside the views at `containerPath` from the whole state (a binding).
  mutating func recordOutsideSession(_ entry: Entry) {
    if let last = segments.last, !last.anchor.isEmpty { segments.append(Segment(start: entries.count, anchor: [])) }
    entries.append(.slot(entry), holdsReferences: true)
    sessionStart = entries.count
  }

  /// Undoes every kept write on `root` (the whole state), newest first, and forgets them.
  mutating func rollBackAll(_ root: inout Value) {
    var end = entries.count
    while end > 0 {
      // Newest segment first; the entries before the first one are from the whole state.
      let segment = segments.popLast()
      let start = segment?.start ?? 0
      for index in (start..<end).reversed() {
        let logged = entries[index]
        root.modify(at: segment?.anchor ?? []) { Self.undo(logged, in: &$0) }
      }
      end = start
    }
    clear()
  }

  /// Forgets everything, keeping the storage.
  mutating func clear() {
    truncate(to: 0)
    while !segments.isEmpty { segments.removeLast() }
  }

  private static func undo(_ logged: Logged, in value: inout Value) {
    switch logged {
    case .slot(let entry):
      value.modify(at: entry.containerPath) { $0.undo(entry.change, at: entry.component, old: entry.old) }
    case .ownField(let position, let old):
      value.setField(at: position, to: old)
    }
  }

  private mutating func truncate(to count: Int) {
    entries.truncate(to: count)
    sessionStart = count
  }

  /// The entries, oldest first, in storage of their own: appending one is a store and a count,
  /// and forgetting own-field entries (most of them; they hold no references) is setting the
  /// count. (An array checked its uniqueness on every append and removal and destroyed each entry
  /// it removed: ≈ 70 instructions of a send that writes one field.)
  private final class Entries {
    private var base: UnsafeMutablePointer<Logged>
    private var capacity = 16
    private(set) var count = 0
    /// The entries from here on hold no references: forgetting them needs no destroying.
    private var trivialFrom = 0

    init() { base = .allocate(capacity: capacity) }

    deinit {
      base.deinitialize(count: count)
      base.deallocate()
    }

    subscript(index: Int) -> Logged {
      precondition(index >= 0 && index < count, "undo log index out of range")
      return base[index]
    }

    @inline(__always)
    func append(_ logged: Logged, holdsReferences: Bool) {
      // The count kept in a local: the store through `base` would otherwise make it load again.
      let index = count
      if index == capacity { grow() }
      (base + index).initialize(to: logged)
      count = index &+ 1
      if holdsReferences { trivialFrom = count }
    }

    /// Forgets the entries from `newCount` on.
    @inline(__always)
    func truncate(to newCount: Int) {
      guard newCount < count else { return }
      if trivialFrom > newCount {
        (base + newCount).deinitialize(count: count - newCount)
        trivialFrom = newCount
      }
      count = newCount
    }

    private func grow() {
      let larger = UnsafeMutablePointer<Logged>.allocate(capacity: capacity * 2)
      larger.moveInitialize(from: base, count: count)
      base.deallocate()
      base = larger
      capacity *= 2
    }
  }
}
