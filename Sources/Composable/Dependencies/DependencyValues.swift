import Foundation

/// The nondeterministic things a feature uses (uuid, random, clock, date, dismiss, and any custom key),
/// overridable per store and per scope. Reducers read `DependencyValues.current` (or `@Dependency`);
/// `Effect.run` captures the values current when it is created, so effects see the same ones.
public struct DependencyValues: Sendable {
  /// Which values a key's default comes from: its live value, or its test value (else
  /// "unimplemented").
  public enum Context: Sendable { case live, test }

  /// Whether these are a store's values or a test's.
  public var context: Context
  /// Each value in a box of its key's value type: reading it back is a class cast, not a cast
  /// from `any Sendable` to an existential (`any Clock<Duration>` cost ~0.6 µs per read, each
  /// `deps.clock.sleep`).
  var storage: [ObjectIdentifier: any DependencyBoxing] = [:]
  /// Dependencies a host knows by name only at run time (a script declares them), see
  /// `subscript(named:)`.
  var named: [String: any Sendable] = [:]
  /// Called when a test reads a dependency it did not provide.
  var unimplemented: (@Sendable (_ name: String) -> Void)?

  /// Empty values (every key at its default) for `context`.
  public init(context: Context = .live) { self.context = context }

  /// Dependencies for a test: every one not set by the test reports "Unimplemented dependency: name".
  public static func test(reportingUnimplemented report: @escaping @Sendable (_ name: String) -> Void) -> Self {
    var values = DependencyValues(context: .test)
    values.unimplemented = report
    return values
  }

  /// The value for `key`: the one set here, else the key's live value (a test's: its test value,
  /// else the live value and an "Unimplemented dependency" failure).
  public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
    get {
      if let box = storage[ObjectIdentifier(key)] { return (box as! DependencyBox<Key.Value>).value }
      guard context == .test else { return Key.liveValue }
      if let value = Key.testValue { return value }
      unimplemented?(Key.name)
      return Key.liveValue
    }
    set { storage[ObjectIdentifier(key)] = DependencyBox(newValue) }
  }

  /// A dependency a host names at run time (a script's own: relua's `relua.dependency "weather"`),
  /// set for a store, a test or a subtree like any other; nil when nothing was set here.
  public subscript(named name: String) -> (any Sendable)? {
    get { named[name] }
    set { named[name] = newValue }
  }

  /// Reports a dependency a test reached without giving it ("Unimplemented dependency: name", a
  /// test failure), as reading an unset key does; nothing outside tests. For dependencies a host
  /// resolves itself (`subscript(named:)`).
  public func reportUnimplemented(_ name: String) {
    guard context == .test else { return }
    unimplemented?(name)
  }

  /// Whether a value was set explicitly for `key`.
  public func isSet<Key: DependencyKey>(_ key: Key.Type) -> Bool { storage[ObjectIdentifier(key)] != nil }

  // MARK: Current values

  /// The values of the send in progress on the main thread (see `ReduceContext`).
  static var reducing: DependencyValues? {
    ReduceContext.current?.dependencies
  }

  /// Captured by `Effect.run` at creation and restored while the effect runs.
  @TaskLocal static var task: DependencyValues?

  /// Values for code that is neither in a store's send nor in an effect.
  nonisolated(unsafe) public static var fallback = DependencyValues()

  /// The dependencies of the reducer running now (in a send), else of the effect running now.
  public static var current: DependencyValues {
    if let reducing { return reducing }
    return task ?? fallback
  }

  package static var currentOrNil: DependencyValues? {
    if let reducing { return reducing }
    return task
  }

  /// Runs `body` with `values` current (for hosts that call reducers directly).
  public static func withValues<R>(_ values: DependencyValues, _ body: () throws -> R) rethrows -> R {
    try ReduceContext(dependencies: values, warn: ReduceContext.current?.warn ?? RuntimeWarnings.printWarning)
      .installed(while: body)
  }
}

/// Reads a dependency from `DependencyValues.current` at the moment of use:
/// `@Dependency(\.uuid) var uuid` in a reducer, then `uuid()` inside `reduce`.
@propertyWrapper
public struct Dependency<Value>: Sendable {
  let keyPath: KeyPath<DependencyValues, Value> & Sendable
  /// Reads the value at `keyPath` of `DependencyValues`.
  public init(_ keyPath: KeyPath<DependencyValues, Value> & Sendable) { self.keyPath = keyPath }
  /// The value now, from `DependencyValues.current`.
  public var wrappedValue: Value { DependencyValues.current[keyPath: keyPath] }
}

/// A dependency's value as `DependencyValues` stores it (see `storage`).
protocol DependencyBoxing: AnyObject, Sendable {}

final class DependencyBox<Value: Sendable>: DependencyBoxing {
  let value: Value
  init(_ value: Value) { self.value = value }
}
