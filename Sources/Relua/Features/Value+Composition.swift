import Composable

// The shapes the composition operators see a record field as. Each `_modify` moves the field's
// value out (leaving `.null` behind, so it stays uniquely referenced), yields it, and puts it back:
// an element action in a forEach of 100,000 rows touches one row, never copies the collection.

extension Value {
  /// The value as an optional child (`nil` for `.null`): what `optional` (ifLet) runs on.
  package var asOptional: Value? {
    // `Optional<Value>.none` spelled out: `Value` is nil-literal convertible, so a bare `nil`
    // here would be `.some(.null)`.
    get { isNull ? Optional<Value>.none : .some(self) }
    _modify {
      var optional: Value? = isNull ? Optional<Value>.none : .some(self)
      self = .null
      defer { self = optional ?? .null }
      yield &optional
    }
  }

  /// The value as a presented destination (`{ kind = state }` or nil).
  var asPresentation: PresentationState<Value> {
    get { PresentationState(isNull ? Optional<Value>.none : .some(self)) }
    _modify {
      var presentation = PresentationState<Value>(isNull ? Optional<Value>.none : .some(self))
      self = .null
      defer { self = presentation.wrappedValue ?? .null }
      yield &presentation
    }
  }

  /// The value as an identified collection (an array of records with ids becomes one).
  var asIdentified: IdentifiedValues {
    get {
      switch self {
      case .identified(let collection): return collection
      case .array(let elements): return (try? IdentifiedValues(elements)) ?? IdentifiedValues()
      default: return IdentifiedValues()
      }
    }
    _modify {
      var collection: IdentifiedValues
      switch self {
      case .identified(let existing): collection = existing
      case .array(let elements): collection = (try? IdentifiedValues(elements)) ?? IdentifiedValues()
      default: collection = IdentifiedValues()
      }
      self = .null
      defer { self = .identified(collection) }
      yield &collection
    }
  }

  /// The value as a navigation stack: an identified collection of `{ id = n, kind = state }`.
  /// Ids are integers; the next id is one more than the largest (so it follows from state alone).
  var asStack: StackState<Value> {
    get { Self.stack(from: self) }
    set { self = Self.value(from: newValue) }
  }

  static func stack(from value: Value) -> StackState<Value> {
    let elements = value.asIdentified.elements
    var stack = StackState<Value>()
    var nextID = 0
    for element in elements {
      guard case .integer(let id) = IdentifiedValues.id(of: element) else { continue }
      stack.insert(element, id: StackElementID(Int(id)))
      nextID = max(nextID, Int(id) &+ 1)  // (the largest id leaves nextID as it is: no overflow trap)
    }
    return stack
  }

  static func value(from stack: StackState<Value>) -> Value {
    var collection = IdentifiedValues()
    for (id, element) in zip(stack.ids, stack.elements) {
      var element = element
      element[key: "id"] = .integer(Int64(id.rawValue))
      try? collection.append(element)
    }
    return .identified(collection)
  }
}

extension IdentifiedValues: IdentifiedCollection {
  /// An element's id: its `id` field.
  public typealias ID = Value
  /// The elements: records.
  public typealias Element = Value

  /// Runs `body` on the element with this id, in place; nil when there is none.
  public mutating func withElement<R>(id: Value, _ body: (inout Value) -> R) -> R? {
    guard let position = index(id: id) else { return nil }
    return modifyElement(at: position, body)
  }

  /// The id version and the id index then. The index is shared copy-on-write and only changes
  /// when ids do, so holding it never makes an element write copy the elements.
  public var idSnapshot: (version: UInt64, ids: [Value: Int], stale: Bool) { (idVersion, positions, isIndexStale) }

  /// The ids in `snapshot` (an `idSnapshot`) that are no longer here.
  public func removedIDs(since snapshot: (version: UInt64, ids: [Value: Int], stale: Bool)) -> [Value] {
    if snapshot.version == idVersion { return [] }
    // A stale index (mid-rearrangement) cannot name what left; sessions end reindexed, so this is rare.
    if snapshot.stale { return [] }
    return snapshot.ids.sorted { $0.value < $1.value }.map(\.key).filter { index(id: $0) == nil }
  }

  /// The ids, in order.
  public var orderedIDs: [Value] { ids }
}
