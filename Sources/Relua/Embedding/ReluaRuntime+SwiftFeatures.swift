extension ReluaRuntime {
  /// Makes `feature` available as `relua.swiftFeature "<name>"` in this runtime's scripts (for
  /// every runtime and every test state: `ReluaHost.registerForEveryState(_:)`). The host it
  /// forwards to is `package`: an embedder reaches it through the runtime.
  public func register(_ feature: ReluaSwiftFeature) { host.register(feature) }
}
