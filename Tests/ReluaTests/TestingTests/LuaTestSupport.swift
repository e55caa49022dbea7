import Foundation
import Relua

/// A temporary directory of Lua test files for one Swift test.
final class LuaTestDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("relua-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  var path: String { url.path }

  /// Runs `body` with this directory as the current directory.
  @MainActor
  func inside<R>(_ body: () async throws -> R) async rethrows -> R {
    let previous = FileManager.default.currentDirectoryPath
    _ = FileManager.default.changeCurrentDirectoryPath(path)
    defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
    return try await body()
  }

  @discardableResult
  func write(_ name: String, _ source: String) throws -> String {
    let file = url.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try source.write(to: file, atomically: true, encoding: .utf8)
    return file.path
  }
}

/// Keeps every line a reporter writes.
@MainActor
final class LineCollector {
  var lines: [String] = []
  var text: String { lines.joined(separator: "\n") + "\n" }
  func write(_ line: String) { lines.append(line) }
}
