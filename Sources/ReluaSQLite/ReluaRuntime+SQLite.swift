import Relua

extension ReluaRuntime {
  /// Makes `relua.sharedKey("sqlite", { path = "records.db", table = "records" })` known to this
  /// runtime's scripts (see `SQLiteSharedKey`).
  public func registerSQLiteSharedKey() {
    registerSharedKey(SQLiteSharedKey.kind, make: SQLiteSharedKey.make)
  }
}

extension ReluaHost {
  /// Makes the `sqlite` shared key known to every Lua state made from now on (the CLI's `relua
  /// run`, `repl` and `test`).
  public static func registerSQLiteSharedKeyForEveryState() {
    registerSharedKeyForEveryState(SQLiteSharedKey.kind, make: SQLiteSharedKey.make)
  }
}
