import Foundation

/// `relua.appStorage(name)`: a small value in the app's key–value store (TCA's `appStorage`,
/// which is `UserDefaults`): on Linux one JSON file per app, a record of every name the app
/// stores, `$XDG_DATA_HOME/relua/<app>.json` (`~/.local/share/relua/<app>.json`). Values are
/// small: one holds at most `maximumBytes` of JSON.
package final class AppStorageKey: ReluaSharedKey, @unchecked Sendable {
  package static let maximumBytes = 64 << 10
  /// The name a test's `files` gives the app's key–value file by (its contents: a JSON record).
  package static let appStorageName = "appStorage"

  /// Writes to one app's file, one at a time (each rewrites the whole record).
  private static let fileLock = NSLock()

  package let name: String
  package let file: String
  private let files: any SharedFileSystem
  private let storage: FileStorageKey

  package init(name: String, file: String, files: any SharedFileSystem) {
    self.name = name
    self.file = file
    self.files = files
    storage = FileStorageKey(path: file, written: file, files: files)
  }

  package var id: String { "appStorage:\(file)#\(name)" }
  package var description: String { "appStorage(\(quoteLuaString(name, elision: .standard)))" }
  package var saveDelay: Duration? { storage.saveDelay }

  package func load() throws -> Value? {
    guard let stored = try storage.load() else { return nil }
    guard case .record(let record) = stored else {
      throw SharedStorageError("\(file) is not a record of names: it was kept as it is and will be moved aside before the next save")
    }
    let value = record[name]
    return value.isNull ? Value?.none : value
  }

  package func save(_ value: Value) throws {
    let size = try value.json().utf8.count
    guard size <= Self.maximumBytes else {
      throw SharedStorageError("appStorage(\"\(name)\") holds small values (at most \(Self.maximumBytes) bytes of JSON); this one is \(size): use fileStorage")
    }
    try Self.fileLock.withLock {
      var record = ValueRecord()
      if let data = try files.read(file), let text = String(data: data, encoding: .utf8),
        case .record(let stored)? = try? Value(json: text)
      {
        record = stored
      }
      record[name] = value
      try storage.save(.record(record))
    }
  }

  package func keepStoredAside() throws {
    // Only a file that is not a record is kept aside: one holding another app value of the
    // wrong kind stays (the next save replaces that one name).
    if let data = try files.read(file), let text = String(data: data, encoding: .utf8), case .record? = try? Value(json: text) { return }
    try storage.keepStoredAside()
  }

  package func subscribe(_ didChange: @escaping @Sendable () -> Void) -> ReluaSharedSubscription? {
    storage.subscribe(didChange)
  }

  /// Where an app's file is: `$RELUA_APP_STORAGE`, else `$XDG_DATA_HOME/relua`, else
  /// `~/.local/share/relua`; the app's name made safe for a file name.
  package static func file(forApp app: String) -> String {
    let environment = ProcessInfo.processInfo.environment
    let directory = environment["RELUA_APP_STORAGE"]
      ?? (environment["XDG_DATA_HOME"].map { $0 + "/relua" })
      ?? (NSHomeDirectory() + "/.local/share/relua")
    let safe = String(app.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
    return directory + "/" + (safe.isEmpty ? "relua" : safe) + ".json"
  }
}
