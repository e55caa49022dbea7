import Foundation

/// The nondeterministic things a feature uses (uuid, random, clock, date, dismiss, and any custom key),
/// overridable per store and per scope. Reducers read `DependencyValues.current` (or `@Dependency`);
/// `Effect.run` captures the values current when it is created, so effects see the same ones.
public struct DependencyValues: Sendable {
  public enum Context: Sendable { case live, test }

  public var context: Context
  var storage: [ObjectIdentifier: any Sendable] = [:]
  /// Called when a test reads a dependency it did not provide.
  var unimplemented: (@Sendable (_ name: String) -> Void)?

  public init(context: Context = .live) { self.context = context }

  /// Dependencies for a test: every one not set by the test reports "Unimplemented dependency: name".
  public static func test(reportingUnimplemented report: @escaping @Sendable (_ name: String) -> Void) -> Self {
    var values = DependencyValues(context: .test)
    values.unimplemented = report
    return values
  }

  public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
    get {
      if let value = storage[ObjectIdentifier(key)] { return value as! Key.Value }
      guard context == .test else { return Key.liveValue }
      if let value = Key.testValue { return value }
      unimplemented?(Key.name)
      return Key.liveValue
    }
    set { storage[ObjectIdentifier(key)] = newValue }
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

  static var currentOrNil: DependencyValues? {
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
  public init(_ keyPath: KeyPath<DependencyValues, Value> & Sendable) { self.keyPath = keyPath }
  public var wrappedValue: Value { DependencyValues.current[keyPath: keyPath] }
}
