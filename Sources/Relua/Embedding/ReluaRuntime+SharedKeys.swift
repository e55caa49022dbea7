extension ReluaRuntime {
  /// Registers a kind of shared key: scripts name it `relua.sharedKey(kind, argument)` and bind
  /// fields to it (`shared = { items = relua.sharedKey("sqlite", { table = "items" }) }`). `make`
  /// is called once per registry (the live stores', each test store's) and key argument.
  ///
  ///     relua.registerSharedKey("sqlite") { request in
  ///       try SQLiteKey(table: request.argument[key: "table"].stringValue ?? "items", inMemory: request.isTest)
  ///     }
  public func registerSharedKey(_ kind: String, make: @escaping @Sendable (ReluaSharedKeyRequest) throws -> any ReluaSharedKey) {
    host.sharedKeyKinds[kind] = make
  }

  /// The current value of a shared key of the live stores (what every live store holding it
  /// sees): `relua.shared(.fileStorage("items.json"))`. Nil when nothing is stored or held yet.
  public func shared(_ key: ReluaSharedKeyName) throws -> Value? {
    try host.liveShares.value(of: key.descriptor)
  }

  /// Sets a shared value of the live stores, as an effect's `withLock` does: every live store
  /// holding it takes it, and it is saved.
  public func setShared(_ key: ReluaSharedKeyName, to value: Value) throws {
    try host.liveShares.set(key.descriptor, to: value)
  }
}

/// A shared key named from Swift, as a script names it (`relua.fileStorage("items.json")`).
public struct ReluaSharedKeyName: Sendable {
  let descriptor: SharedKeyDescriptor

  /// `relua.inMemory(name)`.
  public static func inMemory(_ name: String) -> Self { Self(kind: "inMemory", .string(name)) }
  /// `relua.fileStorage(path)`.
  public static func fileStorage(_ path: String) -> Self { Self(kind: "fileStorage", .string(path)) }
  /// `relua.appStorage(name)`.
  public static func appStorage(_ name: String) -> Self { Self(kind: "appStorage", .string(name)) }
  /// `relua.sharedKey(kind, argument)`: a kind registered with `registerSharedKey`.
  public static func custom(_ kind: String, _ argument: Value = .null) -> Self { Self(kind: kind, argument) }

  private init(kind: String, _ argument: Value) {
    descriptor = SharedKeyDescriptor(kind: kind, argument: argument, projection: .whole, isReadOnly: false)
  }
}
