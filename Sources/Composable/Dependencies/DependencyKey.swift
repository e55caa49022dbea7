/// A key for a dependency in `DependencyValues`. `liveValue` is used by stores, `testValue` by test
/// stores when a test did not provide one (the default test value reports "Unimplemented dependency").
public protocol DependencyKey {
  /// The dependency's type.
  associatedtype Value: Sendable
  /// The value stores use when nothing else was set.
  static var liveValue: Value { get }
  /// The value a test store uses when the test did not set one. Nil (the default) means "unimplemented":
  /// the live value is used but the access fails the test.
  static var testValue: Value? { get }
  /// The name used in failure messages.
  static var name: String { get }
}

extension DependencyKey {
  /// No test value: a test that reads the key without setting it fails ("unimplemented").
  public static var testValue: Value? { nil }
  /// The key's type name.
  public static var name: String { String(describing: Self.self) }
}
