import Composable

/// The dependency that gives a store its shared values: the runtime's registry for live stores,
/// a fresh one per test store.
enum SharedRegistryKey: DependencyKey {
  static let liveValue: SharedRegistry? = nil
  static let testValue: SharedRegistry?? = .some(nil)
  static var name: String { "shared" }
}
