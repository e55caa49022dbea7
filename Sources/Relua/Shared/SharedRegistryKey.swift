import Composable

/// The dependency that gives a store its shared values: the runtime's registry for live stores,
/// a fresh one per test store.
enum SharedRegistryKey: DependencyKey {
  static let liveValue: SharedRegistry? = nil
  static let testValue: SharedRegistry?? = .some(nil)
  static var name: String { "shared" }
}

extension DependencyValues {
  /// Gives stores made with these values `registry`'s shares (a host's own test of shares).
  package mutating func setSharedRegistry(_ registry: SharedRegistry) { self[SharedRegistryKey.self] = registry }
}
