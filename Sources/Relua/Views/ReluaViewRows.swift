/// The rows of a list node (``ReluaViewNode/list(_:)-enum.case``): a collection of ``ReluaViewRow`` with
/// `Int` positions, used as an array is (`rows[2]`, `rows.map`, `rows.first(where:)`, an array
/// literal, SwiftUI's `ForEach(rows, id: \.id)`); `Array(rows)` where an array is needed. Its JSON
/// is the JSON array of its rows.
///
/// Stored in chunks of 32 rows that copies share: changing one row of a long list
/// copies the list of chunks and that chunk only, and comparing a list with its changed copy
/// compares the rows of the changed chunk only (the others are the same storage). What lets a
/// screen of a 1,000-row `relua.ui.forEach` list be read and diffed after one row changed without
/// work per row (docs/DESIGN-NOTES.md, "Views").
public struct ReluaViewRows: Sendable {
  /// Rows per chunk: every chunk is full but the last, so a position's chunk is `position / chunkSize`.
  package static let chunkSize = 1 << chunkShift
  private static let chunkShift = 5
  private static let chunkMask = chunkSize - 1

  /// Rows that never change once made (a change makes a new chunk), shared by copies.
  private final class Chunk: Sendable {
    let rows: [ReluaViewRow]
    init(_ rows: [ReluaViewRow]) { self.rows = rows }
  }

  private var chunks: [Chunk]
  /// How many rows.
  public private(set) var count: Int

  /// The rows of `rows`, in order.
  public init(_ rows: some Sequence<ReluaViewRow>) {
    let all = Array(rows)
    count = all.count
    chunks = stride(from: 0, to: all.count, by: Self.chunkSize).map { start in
      Chunk(Array(all[start..<Swift.min(start + Self.chunkSize, all.count)]))
    }
  }

  /// Sets the row at `position` (which must be a position of the list): its chunk is copied,
  /// every other chunk stays shared with the copies of the list.
  package mutating func replace(at position: Int, with row: ReluaViewRow) {
    precondition(position >= 0 && position < count, "ReluaViewRows: position \(position) out of 0..<\(count)")
    let chunk = position >> Self.chunkShift
    var rows = chunks[chunk].rows
    rows[position & Self.chunkMask] = row
    chunks[chunk] = Chunk(rows)
  }

  /// The positions, in order, whose row in `other` (of the same count) may differ from this
  /// list's — those in chunks the two do not share, unless both rows carry one revision — or nil
  /// when an id differs at a position. Rows are read in place (no row copied, no reference
  /// taken): a changed forEach row costs its chunk's id and revision checks.
  package func positionsMaybeChanged(in other: ReluaViewRows) -> [Int]? {
    precondition(count == other.count, "ReluaViewRows: positionsMaybeChanged of lists of different counts")
    var positions: [Int] = []
    for chunk in chunks.indices where chunks[chunk] !== other.chunks[chunk] {
      let start = chunk << Self.chunkShift
      let same: Bool = chunks[chunk].rows.withUnsafeBufferPointer { mine in
        other.chunks[chunk].rows.withUnsafeBufferPointer { theirs in
          guard mine.count == theirs.count else { return false }
          for index in mine.indices {
            guard mine[index].id == theirs[index].id else { return false }
            if let revision = mine[index].revision, revision == theirs[index].revision { continue }
            positions.append(start + index)
          }
          return true
        }
      }
      guard same else { return nil }
    }
    return positions
  }

  /// The positions of the chunks `other` does not share with this list, in order (chunk by
  /// chunk, by identity: no row is compared). Both must have the same count.
  package func positionsNotShared(with other: ReluaViewRows) -> [Range<Int>] {
    precondition(count == other.count, "ReluaViewRows: positionsNotShared of lists of different counts")
    var ranges: [Range<Int>] = []
    for chunk in chunks.indices where chunks[chunk] !== other.chunks[chunk] {
      let start = chunk << Self.chunkShift
      ranges.append(start..<Swift.min(start + Self.chunkSize, count))
    }
    return ranges
  }
}

extension ReluaViewRows: RandomAccessCollection, MutableCollection {
  /// Positions are `0..<count`.
  public typealias Indices = Range<Int>

  /// 0.
  public var startIndex: Int { 0 }
  /// ``count``.
  public var endIndex: Int { count }

  /// The row at `position`; setting it copies that row's chunk only.
  public subscript(position: Int) -> ReluaViewRow {
    get {
      precondition(position >= 0 && position < count, "ReluaViewRows: position \(position) out of 0..<\(count)")
      return chunks[position >> Self.chunkShift].rows[position & Self.chunkMask]
    }
    set { replace(at: position, with: newValue) }
  }
}

extension ReluaViewRows: RangeReplaceableCollection {
  /// No rows.
  public init() {
    chunks = []
    count = 0
  }

  /// Replaces the rows in `subrange` (the rows are copied into new chunks: O(count)).
  public mutating func replaceSubrange<C: Collection<ReluaViewRow>>(_ subrange: Range<Int>, with newElements: C) {
    var all = Array(self)
    all.replaceSubrange(subrange, with: newElements)
    self = ReluaViewRows(all)
  }

  /// Adds `row` at the end, copying the last chunk only.
  public mutating func append(_ row: ReluaViewRow) {
    if count & Self.chunkMask == 0 {
      chunks.append(Chunk([row]))
    } else {
      chunks[chunks.count - 1] = Chunk(chunks[chunks.count - 1].rows + [row])
    }
    count += 1
  }
}

extension ReluaViewRows: ExpressibleByArrayLiteral {
  /// The rows of the literal.
  public init(arrayLiteral rows: ReluaViewRow...) { self.init(rows) }
}

extension ReluaViewRows: Equatable {
  /// The same rows in the same order; chunks the two share are not compared.
  public static func == (lhs: ReluaViewRows, rhs: ReluaViewRows) -> Bool {
    guard lhs.count == rhs.count else { return false }
    for chunk in lhs.chunks.indices where lhs.chunks[chunk] !== rhs.chunks[chunk] {
      guard lhs.chunks[chunk].rows == rhs.chunks[chunk].rows else { return false }
    }
    return true
  }
}

extension ReluaViewRows: Codable {
  /// Decodes the JSON array of rows.
  public init(from decoder: any Decoder) throws {
    self.init(try [ReluaViewRow](from: decoder))
  }

  /// Encodes the rows as a JSON array, as an array of them is encoded.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for row in self { try container.encode(row) }
  }
}

extension ReluaViewRows: CustomStringConvertible, CustomReflectable {
  /// The rows, as an array of them prints.
  public var description: String { Array(self).description }

  /// The rows, as an array's (what test failures and dumps show).
  public var customMirror: Mirror { Mirror(self, unlabeledChildren: Array(self), displayStyle: .collection) }
}

extension ReluaViewNode {
  /// A list of `rows` given as an array.
  public static func list(_ rows: [ReluaViewRow]) -> ReluaViewNode { .list(ReluaViewRows(rows)) }
}
