import CustomDump
import OrderedCollections

/// The id of a stack element: a counter per stack starting at 0, so tests can name elements.
public struct StackElementID: Hashable, Sendable, Comparable, ExpressibleByIntegerLiteral, CustomStringConvertible {
  public var rawValue: Int
  public init(_ rawValue: Int) { self.rawValue = rawValue }
  public init(integerLiteral value: Int) { self.rawValue = value }
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
  public var description: String { "#\(rawValue)" }
}

/// A navigation stack as state: ordered elements (screens) with ids from a counter.
/// Equality compares elements and ids, not the counter.
public struct StackState<Element> {
  @usableFromInline var storage: OrderedDictionary<StackElementID, Element>
  public private(set) var nextID: Int

  public init() {
    self.storage = [:]
    self.nextID = 0
  }

  public init(_ elements: some Sequence<Element>, nextID: Int = 0) {
    self.storage = [:]
    self.nextID = nextID
    for element in elements { append(element) }
  }

  public var ids: OrderedSet<StackElementID> { storage.keys }
  public var elements: [Element] { Array(storage.values) }
  public var count: Int { storage.count }
  public var isEmpty: Bool { storage.isEmpty }
  public var last: Element? { storage.values.last }

  public subscript(id id: StackElementID) -> Element? {
    get { storage[id] }
    _modify { yield &storage[id] }
  }

  /// Pushes a screen; returns its id.
  @discardableResult
  public mutating func append(_ element: Element) -> StackElementID {
    let id = StackElementID(nextID)
    nextID = nextID == .max ? .max : nextID + 1  // (a loaded state may hold the largest id; no trap)
    storage[id] = element
    return id
  }

  /// Pushes with a given id (from a `.push(id:state:)` action); the counter moves past it.
  public mutating func insert(_ element: Element, id: StackElementID) {
    storage[id] = element
    if id.rawValue >= nextID { nextID = id.rawValue == .max ? .max : id.rawValue + 1 }
  }

  /// Removes the element with `id` and every element after it.
  public mutating func pop(from id: StackElementID) {
    guard let index = storage.index(forKey: id) else { return }
    storage.removeSubrange(index...)
  }

  /// Removes every element after the one with `id`.
  public mutating func pop(to id: StackElementID) {
    guard let index = storage.index(forKey: id) else { return }
    storage.removeSubrange((index + 1)...)
  }

  public mutating func removeLast(_ k: Int = 1) {
    storage.removeLast(k)
  }

  public mutating func removeAll() { storage.removeAll() }
}

extension StackState: RandomAccessCollection {
  public var startIndex: Int { 0 }
  public var endIndex: Int { storage.count }
  public subscript(position: Int) -> Element { storage.values[position] }
}

extension StackState: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension StackState: Equatable where Element: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.storage == rhs.storage }
}
extension StackState: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) { hasher.combine(storage) }
}
extension StackState: Sendable where Element: Sendable {}

extension StackState: CustomDumpReflectable {
  public var customDumpMirror: Mirror {
    Mirror(self, unlabeledChildren: storage.map { (id: $0.key, element: $0.value) }, displayStyle: .collection)
  }
}

/// The parent's action for its stack: an element's action, popping, or pushing a screen.
public enum StackAction<State, Action> {
  case element(id: StackElementID, action: Action)
  case popFrom(id: StackElementID)
  case push(id: StackElementID, state: State)
}

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}
