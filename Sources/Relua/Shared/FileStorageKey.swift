import Foundation

/// `relua.fileStorage(path)`: a value kept as a JSON file, written atomically (a temporary file,
/// then a rename), a short while after a burst of changes, and read again when another process
/// changes it. A file that is not JSON is never overwritten: the next save moves it aside first
/// (`items.json.corrupt-<time>`).
package final class FileStorageKey: ReluaSharedKey, @unchecked Sendable {
  package let path: String
  /// The path as the script wrote it (for messages).
  private let written: String
  private let files: any SharedFileSystem
  private let lock = NSLock()
  /// The stamp of the file as this process last read or wrote it: a different one is an outside change.
  private var knownStamp: String?

  package init(path: String, written: String, files: any SharedFileSystem) {
    self.path = path
    self.written = written
    self.files = files
  }

  package var id: String { "fileStorage:" + path }
  package var description: String { "fileStorage(\(quoteLuaString(written, elision: .standard)))" }
  /// Saves happen off the send path, after 0.2 s without a change; a test's files are written at
  /// once (so a test reads them back without waiting).
  package var saveDelay: Duration? { files.isShared ? .milliseconds(200) : nil }

  package func load() throws -> Value? {
    let stampBefore = files.stamp(path)
    guard let data = try files.read(path) else {
      lock.withLock { knownStamp = nil }
      return nil
    }
    lock.withLock { knownStamp = stampBefore }
    return try Self.decode(data, path: written)
  }

  static func decode(_ data: Data, path: String) throws -> Value {
    guard let text = String(data: data, encoding: .utf8) else {
      throw SharedStorageError("\(path) is not UTF-8 text: it was kept as it is and will be moved aside before the next save")
    }
    do {
      return try Value(json: text)
    } catch {
      throw SharedStorageError("\(path) is not valid JSON (\(error)): it was kept as it is and will be moved aside before the next save")
    }
  }

  package func save(_ value: Value) throws {
    let text = try value.json(pretty: true) + "\n"
    try setAsideIfCorrupt()
    try files.writeAtomically(Data(text.utf8), to: path)
    lock.withLock { knownStamp = files.stamp(path) }
  }

  package func keepStoredAside() throws {
    guard files.exists(path) else { return }
    try files.move(path, to: "\(path).corrupt-\(Int(Date().timeIntervalSince1970 * 1000))")
  }

  /// Moves the file aside when it is there and not JSON (a save must not destroy what a user
  /// wrote by hand, or a file a newer version wrote).
  private func setAsideIfCorrupt() throws {
    guard let data = try files.read(path) else { return }
    if let text = String(data: data, encoding: .utf8), (try? Value(json: text)) != nil { return }
    let stamp = Int(Date().timeIntervalSince1970 * 1000)
    try files.move(path, to: "\(path).corrupt-\(stamp)")
  }

  package func subscribe(_ didChange: @escaping @Sendable () -> Void) -> ReluaSharedSubscription? {
    guard files.isShared else { return nil }
    // Polling the file's stamp: Linux has no portable file-change source in Dispatch, and five
    // checks a second cost a stat(2) each.
    let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
    timer.schedule(deadline: .now() + .milliseconds(200), repeating: .milliseconds(200))
    timer.setEventHandler { [weak self] in
      guard let self else { return }
      let stamp = files.stamp(path)
      let changed = lock.withLock {
        guard stamp != knownStamp else { return false }
        knownStamp = stamp
        return true
      }
      if changed { didChange() }
    }
    timer.resume()
    nonisolated(unsafe) let source = timer  // (cancel is thread-safe)
    return ReluaSharedSubscription { source.cancel() }
  }
}
