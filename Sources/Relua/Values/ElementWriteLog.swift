import CReluaShim

/// The positions of an identified collection written in place lately, each write numbered with a
/// number no other write anywhere has (`relua_next_write_sequence`). Not part of the collection's
/// value (equality and hashing ignore it); copies carry it, and each copy's later writes are its
/// own.
///
/// What it is for: a reader that drew the collection and remembers the newest number it saw
/// (``newest``) learns what changed since in O(changes) (``positions(after:)``), with no pass
/// over the elements. It is sound because a number is found in a collection's log only if that
/// collection's history went through the state the reader saw, and since then it changed only by
/// the writes listed: anything else — an element added, removed or moved, an id changed — clears
/// the log, and so does a full log dropping its older half, so a remembered number is then not
/// found and the reader looks at every element (docs/DESIGN-NOTES.md, "Views"). Nothing is logged
/// until a reader starts the log (``start()``).
package struct ElementWriteLog: Sendable {
  package struct Entry: Sendable {
    package let sequence: UInt64
    package let position: Int
  }

  /// Entries kept; a full log drops its older half.
  static let capacity = 64

  package private(set) var entries: [Entry] = []

  init() {}

  /// The number of the newest write, nil when none is logged.
  package var newest: UInt64? { entries.last?.sequence }

  /// Logs an in-place write at `position` (once ``start()`` was called: before, nothing).
  @inline(__always)
  mutating func record(_ position: Int) {
    let sequence = relua_next_write_sequence()
    guard sequence != 0 else { return }
    if entries.count == Self.capacity { entries.removeFirst(Self.capacity / 2) }
    entries.append(Entry(sequence: sequence, position: position))
  }

  /// Starts logging, for good, in the whole process: called by the first reader of the logs (a
  /// view's `relua.ui.forEach`), so that a program drawing no such view pays no log on a write.
  /// A log started late has no entry a reader remembers: its first read looks at every element.
  package static func start() { relua_start_write_sequence() }

  /// Forgets every write (the elements moved, or their ids changed).
  @inline(__always)
  mutating func clear() {
    if !entries.isEmpty { entries.removeAll() }
  }

  /// The positions written after the write numbered `sequence` (repeats removed), or nil when that
  /// write is not in this log (another history, or dropped): then only a look at every element
  /// tells what changed.
  package func positions(after sequence: UInt64) -> [Int]? {
    guard let found = entries.lastIndex(where: { $0.sequence == sequence }) else { return nil }
    var positions: [Int] = []
    for entry in entries[(found + 1)...] where !positions.contains(entry.position) {
      positions.append(entry.position)
    }
    return positions
  }
}
