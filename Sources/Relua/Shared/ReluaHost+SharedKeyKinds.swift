extension ReluaHost {
  /// Kinds of shared key every host gets as it is made (`registerSharedKeyForEveryState`): a
  /// program that runs many Lua states (`relua test` makes one per test) registers its plug-ins
  /// once, as it does its dependencies.
  static var everyStateSharedKeyKinds: [String: @Sendable (ReluaSharedKeyRequest) throws -> any ReluaSharedKey] = [:]

  /// Makes the kind of shared key `kind` (`relua.sharedKey(kind, argument)`) known to every host
  /// made from now on; `ReluaRuntime.registerSharedKey(_:make:)` does it for one runtime.
  public static func registerSharedKeyForEveryState(
    _ kind: String, make: @escaping @Sendable (ReluaSharedKeyRequest) throws -> any ReluaSharedKey
  ) {
    everyStateSharedKeyKinds[kind] = make
  }
}
