import ConcurrencyExtras

/// Stack element ids from a counter that only goes up, as TCA's `StackElementIDGenerator`: one
/// store never gives an id twice, so a late action for a popped element cannot reach a newer one
/// (push, push, pop the second, push: ids 0, 1, then 2). Each root store gets its own counter,
/// starting at 0, so tests can predict every id.
public struct StackElementIDGenerator: Sendable {
  private let counter: LockIsolated<Int>

  /// A counter starting at 0.
  public static func incrementing() -> Self { Self(counter: LockIsolated(0)) }

  /// A counter whose next id is `first` (a recorded session replays from where it was).
  public static func starting(at first: Int) -> Self { Self(counter: LockIsolated(Swift.max(0, first))) }

  /// The id `next()` would give now.
  public var peek: Int { counter.value }

  /// The next id, and at least `minimum` (a stack loaded with ids of its own stays unique).
  public func next(atLeast minimum: Int = 0) -> Int {
    counter.withValue { value in
      let id = Swift.max(value, minimum)
      value = id == .max ? .max : id + 1
      return id
    }
  }
}

private enum StackElementIDGeneratorKey: DependencyKey {
  static let liveValue = StackElementIDGenerator.incrementing()
  static var testValue: StackElementIDGenerator? { .incrementing() }
  static var name: String { "stackElementID" }
}

extension DependencyValues {
  /// The ids of pushed stack elements (each root store gets a counter of its own, from 0).
  public var stackElementID: StackElementIDGenerator {
    get { self[StackElementIDGeneratorKey.self] }
    set { self[StackElementIDGeneratorKey.self] = newValue }
  }

  /// Whether a stack element id generator was set (a root store sets its own when not).
  var hasStackElementIDGenerator: Bool { isSet(StackElementIDGeneratorKey.self) }
}
