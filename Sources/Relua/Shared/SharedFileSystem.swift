import Foundation

/// The files `fileStorage` and `appStorage` keys read and write: the real disk, or a test's
/// in-memory files (TCA's default in tests, so no test touches the disk or sees another's files).
package protocol SharedFileSystem: Sendable {
  /// The file's bytes; nil when there is no file.
  func read(_ path: String) throws -> Data?
  /// Writes `data` so that a reader sees the old file or the new one, never a part: a temporary
  /// file beside it, then a rename over it.
  func writeAtomically(_ data: Data, to path: String) throws
  /// Moves a file aside (a corrupt one is kept, never overwritten).
  func move(_ path: String, to destination: String) throws
  /// Whether a file is there.
  func exists(_ path: String) -> Bool
  /// What changes when the file is written (its modification time and size); nil without a file.
  func stamp(_ path: String) -> String?
  /// Whether outside changes can happen (and are worth watching for).
  var isShared: Bool { get }
}

/// The disk.
package struct DiskFileSystem: SharedFileSystem {
  package init() {}

  package func read(_ path: String) throws -> Data? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    return try Data(contentsOf: URL(fileURLWithPath: path))
  }

  package func writeAtomically(_ data: Data, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
    try data.write(to: temporary)
    // rename(2) replaces the file in one step.
    guard rename(temporary.path, path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw SharedStorageError("cannot replace \(path): \(reason)")
    }
  }

  package func move(_ path: String, to destination: String) throws {
    guard rename(path, destination) == 0 else {
      throw SharedStorageError("cannot move \(path) aside: \(String(cString: strerror(errno)))")
    }
  }

  package func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

  package func stamp(_ path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec):\(info.st_size):\(info.st_ino)"
  }

  package var isShared: Bool { true }
}

/// Files in memory, for one test store (or what a test gives it).
package final class InMemoryFileSystem: SharedFileSystem, @unchecked Sendable {
  private let lock = NSLock()
  private var files: [String: Data]
  private var writes = 0

  package init(files: [String: Data] = [:]) { self.files = files }

  package func read(_ path: String) throws -> Data? { lock.withLock { files[path] } }

  package func writeAtomically(_ data: Data, to path: String) throws {
    lock.withLock {
      files[path] = data
      writes += 1
    }
  }

  package func move(_ path: String, to destination: String) throws {
    try lock.withLock {
      guard let data = files.removeValue(forKey: path) else { throw SharedStorageError("no file \(path)") }
      files[destination] = data
    }
  }

  package func exists(_ path: String) -> Bool { lock.withLock { files[path] != nil } }

  package func stamp(_ path: String) -> String? { lock.withLock { files[path].map { "\($0.hashValue):\(writes)" } } }

  package var isShared: Bool { false }

  /// Every file, by path (what a test reads back).
  package var contents: [String: Data] { lock.withLock { files } }
}

/// A shared value that could not be loaded or saved: what `loadError()` / `saveError()` say.
package struct SharedStorageError: Error, CustomStringConvertible {
  package let description: String
  package init(_ description: String) { self.description = description }
}
