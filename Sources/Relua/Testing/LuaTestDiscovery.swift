import Foundation

/// Finds test files: `*_test.lua` and `*_spec.lua` (busted's) under directories (recursively),
/// and files named explicitly.
package enum LuaTestDiscovery {
  /// relua's own suffix (what `:record` writes).
  package static let suffix = "_test.lua"
  /// The suffixes a directory's test files end with: relua's and busted's.
  package static let suffixes = ["_test.lua", "_spec.lua"]

  /// The test files under `paths`, each directory's files sorted by path; explicit files are kept
  /// whatever their name. A path that does not exist is returned as is, so running it reports it.
  package static func testFiles(in paths: [String]) -> [String] {
    var files: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
        files.append(path)
        continue
      }
      let found = (FileManager.default.subpaths(atPath: path) ?? [])
        .filter { path in suffixes.contains { path.hasSuffix($0) } }
        .map { join(path, $0) }
        .filter { file in
          var isDirectory: ObjCBool = false
          return FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
      files.append(contentsOf: found.sorted())
    }
    var seen = Set<String>()
    return files.map(relativeToCurrentDirectory).filter { seen.insert($0).inserted }
  }

  /// Lua shows at most ~60 characters of a chunk's path in messages (`...` before the rest), so
  /// files under the current directory are named relative to it.
  package static func relativeToCurrentDirectory(_ path: String) -> String {
    let current = FileManager.default.currentDirectoryPath
    guard path.hasPrefix("/"), path.hasPrefix(current + "/") else { return path }
    return String(path.dropFirst(current.count + 1))
  }

  /// `directory/relative`, without a leading `./` so messages stay short.
  static func join(_ directory: String, _ relative: String) -> String {
    if directory == "." { return relative }
    return directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
  }

  /// The directories `require` may load from in a test of `file`: the file's directory, and the
  /// repository's `Scripts` directory when the file is under one (or under a directory holding one),
  /// so `require "Features.GuessingGame"` works from `Scripts/Tests`.
  package static func scriptRoots(for file: String) -> [String] {
    let directory = URL(fileURLWithPath: file).deletingLastPathComponent().standardizedFileURL
    var roots = [directory.path]
    var candidate = directory
    while true {
      if candidate.lastPathComponent == "Scripts" {
        roots.append(candidate.path)
        break
      }
      let child = candidate.appendingPathComponent("Scripts")
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: child.path, isDirectory: &isDirectory), isDirectory.boolValue {
        roots.append(child.path)
        break
      }
      let parent = candidate.deletingLastPathComponent()
      if parent.path == candidate.path { break }
      candidate = parent
    }
    var seen = Set<String>()
    return roots.filter { seen.insert($0).inserted }
  }
}
