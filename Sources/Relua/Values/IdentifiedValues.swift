/// An identified collection: records in order, unique by their `id` field, found by id in O(1)
/// (TCA's `IdentifiedArray` for values). In Lua it is a plain sequence.
///
/// Lua code rearranges sequences one slot at a time (`table.insert` shifts, `table.sort` swaps),
/// so an id can briefly appear twice mid-operation. Positional writes therefore tolerate a
/// duplicate: they mark the id index stale instead of failing, lookups fall back to a scan while
/// it is stale, and `reindex()` (run when a state session ends) rebuilds it and rejects
/// duplicates that are still there.
public struct IdentifiedValues: Sendable {
  /// The records, in order.
  public private(set) var elements: [Value] = []
  private(set) var positions: [Value: Int] = [:]
  /// True when `positions` may be wrong (after a positional write that duplicated an id).
  package private(set) var isIndexStale: Bool {
    get { idBits & Self.staleBit != 0 }
    set { idBits = newValue ? idBits | Self.staleBit : idBits & ~Self.staleBit }
  }
  /// Changes whenever the set of ids may have changed (not part of equality): lets `forEach`
  /// tell in O(1) that an action removed no element.
  package var idVersion: UInt64 { idBits & ~Self.staleBit }
  /// The id version (low 63 bits) and the stale flag (top bit) in one word: with the write log,
  /// four words, as the collection was before it (a `Value` holds one inline, so a wider collection
  /// widens every value: measured, `lua.send` 7 % slower).
  private var idBits: UInt64 = 0
  private static let staleBit: UInt64 = 1 << 63
  /// The positions written in place since the ids last changed (not part of equality): lets a
  /// view's `relua.ui.forEach` find the rows to draw again without looking at every element.
  package private(set) var writes = ElementWriteLog()

  /// An empty collection.
  public init() {}

  /// Elements must be records with a non-nil `id`, unique.
  public init(_ elements: [Value]) throws(ValueError) {
    self.elements = elements
    try reindex()
  }

  /// The id of an element (its `id` field), `.null` when it has none.
  public static func id(of element: Value) -> Value {
    guard case .record(let record) = element else { return .null }
    return record["id"]
  }

  /// How many elements.
  public var count: Int { elements.count }
  /// Whether there are none.
  public var isEmpty: Bool { elements.isEmpty }
  /// The elements' ids, in order.
  public var ids: [Value] { elements.map(Self.id(of:)) }

  /// The position of the element with this id.
  public func index(id: Value) -> Int? {
    if !isIndexStale { return positions[id] }
    return elements.firstIndex { Self.id(of: $0) == id }
  }

  /// The element with this id; setting replaces it, appends a new one, or (nil) removes it.
  public subscript(id id: Value) -> Value? {
    get { index(id: id).map { elements[$0] } }
    set {
      if let position = index(id: id) {
        if let newValue { self[position] = newValue } else { remove(at: position) }
      } else if let newValue {
        try? append(newValue)
      }
    }
  }

  /// The element at `position` (0-based). Changing an element's id through here keeps the index.
  public subscript(position: Int) -> Value {
    get { elements[position] }
    _modify {
      let oldID = Self.id(of: elements[position])
      yield &elements[position]
      writes.record(position)
      let newID = Self.id(of: elements[position])
      if oldID != newID { moveIndex(at: position, from: oldID, to: newID) }
    }
  }

  /// Runs `body` on the element at `position` in place, keeping the id index right.
  mutating func modifyElement<R>(at position: Int, _ body: (inout Value) throws -> R) rethrows -> R {
    let oldID = Self.id(of: elements[position])
    defer {
      writes.record(position)
      let newID = Self.id(of: elements[position])
      if oldID != newID { moveIndex(at: position, from: oldID, to: newID) }
    }
    return try body(&elements[position])
  }

  /// Appends a new element; throws when its id is missing or already present.
  public mutating func append(_ element: Value) throws(ValueError) {
    let id = try checkedNewID(of: element)
    positions[id] = elements.count
    elements.append(element)
    idsMayHaveChanged()
  }

  /// Inserts at `position` (0-based, `0...count`); O(n) reindexing of what follows.
  public mutating func insert(_ element: Value, at position: Int) throws(ValueError) {
    _ = try checkedNewID(of: element)
    elements.insert(element, at: position)
    idsMayHaveChanged()
    rebuildPositions()
  }

  /// Removes and returns the element at `position`.
  @discardableResult
  public mutating func remove(at position: Int) -> Value {
    let element = elements.remove(at: position)
    idsMayHaveChanged()
    if position == elements.count, !isIndexStale {
      positions[Self.id(of: element)] = nil
    } else {
      rebuildPositions()
    }
    return element
  }

  /// Removes and returns the element with this id; nil when there is none.
  @discardableResult
  public mutating func remove(id: Value) -> Value? {
    guard let position = index(id: id) else { return nil }
    return remove(at: position)
  }

  /// Replaces, appends (`position == count`) or, for `.null` at the last position, removes,
  /// the way a Lua sequence assignment does. Duplicated ids only mark the index stale.
  mutating func setSlot(_ position: Int, to element: Value) {
    idsMayHaveChanged()
    if position == elements.count {
      guard !element.isNull else { return }
      let id = Self.id(of: element)
      if id.isNull || positions[id] != nil { isIndexStale = true } else { positions[id] = position }
      elements.append(element)
    } else if element.isNull {
      precondition(position == elements.count - 1, "only the last element of a sequence can be removed by nil")
      remove(at: position)
    } else {
      self[position] = element
    }
  }

  /// Rebuilds the id index; throws (leaving it stale) if an element has no id or ids repeat.
  package mutating func reindex() throws(ValueError) {
    var rebuilt: [Value: Int] = [:]
    rebuilt.reserveCapacity(elements.count)
    for (position, element) in elements.enumerated() {
      let id = Self.id(of: element)
      guard !id.isNull else {
        isIndexStale = true
        throw .identity(position: position, message: "elements of an identified collection must be records with an id")
      }
      guard rebuilt.updateValue(position, forKey: id) == nil else {
        isIndexStale = true
        throw .identity(position: position, message: "duplicate id \(id) in an identified collection")
      }
    }
    positions = rebuilt
    isIndexStale = false
    idsMayHaveChanged()
  }

  private mutating func checkedNewID(of element: Value) throws(ValueError) -> Value {
    let id = Self.id(of: element)
    guard !id.isNull else {
      throw .identity(position: elements.count, message: "elements of an identified collection must be records with an id")
    }
    guard index(id: id) == nil else {
      throw .identity(position: elements.count, message: "duplicate id \(id) in an identified collection")
    }
    return id
  }

  private mutating func moveIndex(at position: Int, from oldID: Value, to newID: Value) {
    idsMayHaveChanged()
    guard !isIndexStale else { return }
    if positions[oldID] == position { positions[oldID] = nil }
    if newID.isNull || positions[newID] != nil { isIndexStale = true } else { positions[newID] = position }
  }

  /// The set, order or index of the ids may have changed: positions written so far no longer say
  /// where rows stand.
  @inline(__always)
  private mutating func idsMayHaveChanged() {
    idBits = (idBits & Self.staleBit) | ((idBits &+ 1) & ~Self.staleBit)
    writes.clear()
  }

  private mutating func rebuildPositions() {
    idsMayHaveChanged()
    if (try? reindex()) == nil { isIndexStale = true }
  }
}

extension IdentifiedValues: Hashable {
  /// Two collections are equal when their elements are; the index is a cache.
  public static func == (lhs: IdentifiedValues, rhs: IdentifiedValues) -> Bool { lhs.elements == rhs.elements }
  /// Hashes the elements (what equality compares).
  public func hash(into hasher: inout Hasher) { hasher.combine(elements) }
}
