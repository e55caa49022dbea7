import CustomDump
import OrderedCollections

/// The id of a stack element: a counter per stack starting at 0, so tests can name elements.
public struct StackElementID: Hashable, Sendable, Comparable, ExpressibleByIntegerLiteral, CustomStringConvertible {
  /// The counter value.
  public var rawValue: Int
  /// The id `rawValue`.
  public init(_ rawValue: Int) { self.rawValue = rawValue }
  /// The id of an integer literal (`store.send(.path(.element(id: 0, …)))`).
  public init(integerLiteral value: Int) { self.rawValue = value }
  /// Ordered by their counter value: older elements first.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
  /// `#0`, `#1`, …
  public var description: String { "#\(rawValue)" }
}

/// A navigation stack as state: ordered elements (screens) with ids from a counter.
/// Equality compares elements and ids, not the counter.
public struct StackState<Element> {
  @usableFromInline var storage: OrderedDictionary<StackElementID, Element>
  /// The id the next pushed element gets.
  public private(set) var nextID: Int

  /// An empty stack whose first element gets id 0.
  public init() {
    self.storage = [:]
    self.nextID = 0
  }

  /// A stack of `elements`, given ids from `nextID` on.
  public init(_ elements: some Sequence<Element>, nextID: Int = 0) {
    self.storage = [:]
    self.nextID = nextID
    for element in elements { append(element) }
  }

  /// The elements' ids, bottom to top.
  public var ids: OrderedSet<StackElementID> { storage.keys }
  /// The elements, bottom to top.
  public var elements: [Element] { Array(storage.values) }
  /// How many elements are pushed.
  public var count: Int { storage.count }
  /// Whether nothing is pushed.
  public var isEmpty: Bool { storage.isEmpty }
  /// The top element, if any.
  public var last: Element? { storage.values.last }

  /// The element with `id`; nil when it is not in the stack (writing nil removes it).
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

  /// Pops the top `k` elements.
  public mutating func removeLast(_ k: Int = 1) {
    storage.removeLast(k)
  }

  /// Pops every element.
  public mutating func removeAll() { storage.removeAll() }
}

extension StackState: RandomAccessCollection {
  /// 0.
  public var startIndex: Int { 0 }
  /// The number of elements.
  public var endIndex: Int { storage.count }
  /// The element at `position` from the bottom.
  public subscript(position: Int) -> Element { storage.values[position] }
}

extension StackState: ExpressibleByArrayLiteral {
  /// A stack of these elements, with ids from 0.
  public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension StackState: Equatable where Element: Equatable {
  /// Equal when the elements and their ids are (the counter is not compared).
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.storage == rhs.storage }
}
extension StackState: Hashable where Element: Hashable {
  /// Hashes the elements and their ids.
  public func hash(into hasher: inout Hasher) { hasher.combine(storage) }
}
extension StackState: Sendable where Element: Sendable {}

extension StackState: CustomDumpReflectable {
  /// Dumps as a list of (id, element) pairs.
  public var customDumpMirror: Mirror {
    Mirror(self, unlabeledChildren: storage.map { (id: $0.key, element: $0.value) }, displayStyle: .collection)
  }
}

/// The parent's action for its stack: an element's action, popping, or pushing a screen.
public enum StackAction<State, Action> {
  /// An action of the element with `id`.
  case element(id: StackElementID, action: Action)
  /// Pops the element with `id` and every element above it.
  case popFrom(id: StackElementID)
  /// Pushes `state` as a new element with the id `id`.
  case push(id: StackElementID, state: State)
}

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}
