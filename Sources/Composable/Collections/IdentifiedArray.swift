import CustomDump
import OrderedCollections

/// An ordered collection of elements with unique ids, O(1) by id (over an `OrderedDictionary`).
/// `IdentifiedArrayOf<Element>` uses `Element.id`; any other id is given as a function
/// (e.g. a field of a dynamic host value).
public struct IdentifiedArray<ID: Hashable & Sendable, Element> {
  @usableFromInline var storage: OrderedDictionary<ID, Element>
  /// Replaced on every insertion or removal: equal tokens mean equal ids, checked in O(1).
  @usableFromInline var token: StructureToken
  public let id: @Sendable (Element) -> ID

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

  public init(id: @escaping @Sendable (Element) -> ID) {
    self.init(uniqueElements: [], id: id)
  }

  public var ids: OrderedSet<ID> { storage.keys }
  public var elements: [Element] { Array(storage.values) }

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

  public mutating func insert(_ element: Element, at index: Int) {
    let key = id(element)
    precondition(storage[key] == nil, "IdentifiedArray: duplicate id \(key)")
    storage.updateValue(element, forKey: key, insertingAt: index)
    token = StructureToken()
  }

  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let element = storage.removeValue(forKey: id) else { return nil }
    token = StructureToken()
    return element
  }

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

  public mutating func removeAll(where shouldRemove: (Element) -> Bool) {
    storage.removeAll { shouldRemove($0.value) }
    token = StructureToken()
  }

  public mutating func removeAll() {
    storage.removeAll()
    token = StructureToken()
  }

  public func index(id: ID) -> Int? { storage.index(forKey: id) }
}

@usableFromInline
final class StructureToken: Sendable {
  @usableFromInline init() {}
}

public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element.ID, Element>
where Element.ID: Sendable

extension IdentifiedArray where Element: Identifiable, Element.ID == ID {
  public init(uniqueElements elements: some Sequence<Element>) {
    self.init(uniqueElements: elements, id: { $0.id })
  }

  public init() {
    self.init(uniqueElements: [], id: { $0.id })
  }
}

extension IdentifiedArray: ExpressibleByArrayLiteral where Element: Identifiable, Element.ID == ID {
  public init(arrayLiteral elements: Element...) { self.init(uniqueElements: elements) }
}

extension IdentifiedArray: RandomAccessCollection, MutableCollection {
  public var startIndex: Int { 0 }
  public var endIndex: Int { storage.count }
  public subscript(position: Int) -> Element {
    get { storage.values[position] }
    set {
      precondition(id(newValue) == storage.keys[position], "IdentifiedArray: element id changed at \(position)")
      storage.values[position] = newValue
    }
  }
}

extension IdentifiedArray: IdentifiedCollection {
  public struct IDSnapshot {
    let token: StructureToken
    let ids: OrderedSet<ID>
  }

  @inlinable
  public mutating func withElement<R>(id: ID, _ body: (inout Element) -> R) -> R? {
    guard let index = storage.index(forKey: id) else { return nil }
    return body(&storage.values[index])
  }

  public var idSnapshot: IDSnapshot { IDSnapshot(token: token, ids: storage.keys) }

  public func removedIDs(since snapshot: IDSnapshot) -> [ID] {
    if snapshot.token === token { return [] }
    return snapshot.ids.filter { storage[$0] == nil }
  }

  public var orderedIDs: [ID] { Array(storage.keys) }
}

extension IdentifiedArray: Equatable where Element: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.token === rhs.token ? lhs.storage.values.elementsEqual(rhs.storage.values) : lhs.storage == rhs.storage
  }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) { hasher.combine(storage) }
}

extension IdentifiedArray: @unchecked Sendable where Element: Sendable {}

extension IdentifiedArray: CustomStringConvertible {
  public var description: String { elements.description }
}

extension IdentifiedArray: CustomDumpReflectable {
  public var customDumpMirror: Mirror { Mirror(self, unlabeledChildren: elements, displayStyle: .collection) }
}
