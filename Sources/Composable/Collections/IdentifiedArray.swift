import CustomDump
import OrderedCollections

/// An ordered collection of elements with unique ids, O(1) by id (over an `OrderedDictionary`).
/// `IdentifiedArrayOf<Element>` uses `Element.id`; any other id is given as a function
/// (e.g. a field of a dynamic host value).
public struct IdentifiedArray<ID: Hashable & Sendable, Element> {
  @usableFromInline var storage: OrderedDictionary<ID, Element>
  /// Replaced on every insertion or removal: equal tokens mean equal ids, checked in O(1).
  @usableFromInline var token: StructureToken
  /// The id of an element.
  public let id: @Sendable (Element) -> ID

  /// The elements in order, identified by `id`; their ids must be unique (a duplicate is a
  /// precondition failure).
  public init(uniqueElements elements: some Sequence<Element>, id: @escaping @Sendable (Element) -> ID) {
    var storage = OrderedDictionary<ID, Element>()
    for element in elements {
      let key = id(element)
      precondition(storage[key] == nil, "IdentifiedArray: duplicate id \(key)")
      storage[key] = element
    }
    self.storage = storage
    self.token = StructureToken()
    self.id = id
  }

  /// An empty array identifying its elements by `id`.
  public init(id: @escaping @Sendable (Element) -> ID) {
    self.init(uniqueElements: [], id: id)
  }

  /// The ids, in order.
  public var ids: OrderedSet<ID> { storage.keys }
  /// The elements, in order.
  public var elements: [Element] { Array(storage.values) }

  /// The element with `id`, in O(1); nil when there is none. Writing nil removes it; writing an
  /// element appends or replaces it (its id must be `id`).
  @inlinable
  public subscript(id id: ID) -> Element? {
    get { storage[id] }
    _modify {
      let wasPresent = storage.index(forKey: id) != nil
      yield &storage[id]
      if wasPresent != (storage.index(forKey: id) != nil) { token = StructureToken() }
    }
    set {
      if let newValue { precondition(self.id(newValue) == id, "IdentifiedArray: element id does not match \(id)") }
      let changed = (storage[id] == nil) != (newValue == nil)
      storage[id] = newValue
      if changed { token = StructureToken() }
    }
  }

  /// Appends the element unless one with its id is already there (like TCA's IdentifiedArray).
  public mutating func append(_ element: Element) {
    let key = id(element)
    guard storage.index(forKey: key) == nil else { return }
    token = StructureToken()
    storage[key] = element
  }

  /// Appends each element whose id is not there yet.
  public mutating func append(contentsOf elements: some Sequence<Element>) {
    for element in elements { append(element) }
  }

  /// Appends, or replaces the element with the same id in place.
  @discardableResult
  public mutating func updateOrAppend(_ element: Element) -> Element? {
    let key = id(element)
    if storage[key] == nil { token = StructureToken() }
    return storage.updateValue(element, forKey: key)
  }

  /// Inserts the element at `index`; its id must not be there yet (a precondition).
  public mutating func insert(_ element: Element, at index: Int) {
    let key = id(element)
    precondition(storage[key] == nil, "IdentifiedArray: duplicate id \(key)")
    storage.updateValue(element, forKey: key, insertingAt: index)
    token = StructureToken()
  }

  /// Removes the element with `id`; returns it, or nil when there was none.
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let element = storage.removeValue(forKey: id) else { return nil }
    token = StructureToken()
    return element
  }

  /// Removes the element at `index` and returns it.
  @discardableResult
  public mutating func remove(at index: Int) -> Element {
    token = StructureToken()
    return storage.remove(at: index).value
  }

  /// Removes the elements at these 0-based positions.
  public mutating func remove(atOffsets offsets: some Sequence<Int>) {
    for offset in Set(offsets).sorted(by: >) { storage.remove(at: offset) }
    token = StructureToken()
  }

  /// Removes the elements `shouldRemove` accepts.
  public mutating func removeAll(where shouldRemove: (Element) -> Bool) {
    storage.removeAll { shouldRemove($0.value) }
    token = StructureToken()
  }

  /// Removes every element.
  public mutating func removeAll() {
    storage.removeAll()
    token = StructureToken()
  }

  /// The position of the element with `id`; nil when there is none.
  public func index(id: ID) -> Int? { storage.index(forKey: id) }
}

@usableFromInline
final class StructureToken: Sendable {
  @usableFromInline init() {}
}

/// An `IdentifiedArray` of `Identifiable` elements, identified by their `id`.
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element.ID, Element>
where Element.ID: Sendable

extension IdentifiedArray where Element: Identifiable, Element.ID == ID {
  /// The elements in order, identified by their `id`; the ids must be unique.
  public init(uniqueElements elements: some Sequence<Element>) {
    self.init(uniqueElements: elements, id: { $0.id })
  }

  /// An empty array.
  public init() {
    self.init(uniqueElements: [], id: { $0.id })
  }
}

extension IdentifiedArray: ExpressibleByArrayLiteral where Element: Identifiable, Element.ID == ID {
  /// The literal's elements, identified by their `id`.
  public init(arrayLiteral elements: Element...) { self.init(uniqueElements: elements) }
}

extension IdentifiedArray: RandomAccessCollection, MutableCollection {
  /// 0.
  public var startIndex: Int { 0 }
  /// The number of elements.
  public var endIndex: Int { storage.count }
  /// The element at `position` (its id must not change when written).
  public subscript(position: Int) -> Element {
    get { storage.values[position] }
    set {
      precondition(id(newValue) == storage.keys[position], "IdentifiedArray: element id changed at \(position)")
      storage.values[position] = newValue
    }
  }
}

extension IdentifiedArray: IdentifiedCollection {
  /// The ids at one moment, to compare with later (`removedIDs(since:)`).
  public struct IDSnapshot {
    let token: StructureToken
    let ids: OrderedSet<ID>
  }

  /// Runs `body` on the element with `id` in place; nil when there is none.
  @inlinable
  public mutating func withElement<R>(id: ID, _ body: (inout Element) -> R) -> R? {
    guard let index = storage.index(forKey: id) else { return nil }
    return body(&storage.values[index])
  }

  /// The ids now, without copying the elements.
  public var idSnapshot: IDSnapshot { IDSnapshot(token: token, ids: storage.keys) }

  /// The ids present at `snapshot` that are gone now (O(1) when none was inserted or removed
  /// since).
  public func removedIDs(since snapshot: IDSnapshot) -> [ID] {
    if snapshot.token === token { return [] }
    return snapshot.ids.filter { storage[$0] == nil }
  }

  /// The ids, in order.
  public var orderedIDs: [ID] { Array(storage.keys) }
}

extension IdentifiedArray: Equatable where Element: Equatable {
  /// Equal when the same ids hold equal elements in the same order.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.token === rhs.token ? lhs.storage.values.elementsEqual(rhs.storage.values) : lhs.storage == rhs.storage
  }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  /// Hashes the ids and elements in order.
  public func hash(into hasher: inout Hasher) { hasher.combine(storage) }
}

extension IdentifiedArray: @unchecked Sendable where Element: Sendable {}

extension IdentifiedArray: CustomStringConvertible {
  /// The elements, as an array prints.
  public var description: String { elements.description }
}

extension IdentifiedArray: CustomDumpReflectable {
  /// Dumps as the list of elements.
  public var customDumpMirror: Mirror { Mirror(self, unlabeledChildren: elements, displayStyle: .collection) }
}
