import Foundation
import XCTest

@testable import Relua
@testable import ReluaTooling

/// What `relua types Scripts/Features` writes at the repository's root, byte for byte: relua.lua
/// and one file per shipped feature module, against the golden files in `Golden/` beside this file.
///
/// After a deliberate change to what `relua types` writes, regenerate them and review the diff:
///
///     RELUA_UPDATE_GOLDEN=1 swift test --filter LuaTypesGoldenTests
///
/// (the same as `relua types -o Tests/ReluaTests/Tooling/Golden Scripts/Features` at the root,
/// which CLITests' `TypesCommandTests` checks).
@MainActor
final class LuaTypesGoldenTests: XCTestCase {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
  static let updateVariable = "RELUA_UPDATE_GOLDEN"

  func testEveryShippedFeatureMatchesItsGoldenFile() async throws {
    let files = try await Self.generateShippedFeatures()
    let golden = Self.directory
    if ProcessInfo.processInfo.environment[Self.updateVariable] != nil {
      try Self.replaceGoldenFiles(with: files)
      print("\(Self.updateVariable): wrote \(files.count) golden file(s) to \(golden.path)")
      return
    }
    let goldenNames = Set(try FileManager.default.contentsOfDirectory(atPath: golden.path).filter { $0.hasSuffix(".lua") })
    let written = Set(files.map(\.name))
    let regenerate = "regenerate them with `\(Self.updateVariable)=1 swift test --filter LuaTypesGoldenTests` and review the diff"
    XCTAssertEqual(
      written.subtracting(goldenNames).sorted(), [],
      "relua types writes these files and Golden/ has none for them: \(regenerate)")
    XCTAssertEqual(
      goldenNames.subtracting(written).sorted(), [],
      "Golden/ has files relua types no longer writes: \(regenerate)")
    XCTAssertEqual(files.count, ShippedFeatures.files().count + 1, "relua.lua and one file per feature script")
    var actualDirectory: URL?
    for file in files where goldenNames.contains(file.name) {
      let expected = try Data(contentsOf: golden.appendingPathComponent(file.name))
      guard expected != Data(file.text.utf8) else { continue }
      // Keep what was written, so the whole difference can be read with diff.
      if actualDirectory == nil {
        actualDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("relua-types-actual-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: actualDirectory!, withIntermediateDirectories: true)
      }
      let actual = actualDirectory!.appendingPathComponent(file.name)
      try Data(file.text.utf8).write(to: actual)
      XCTFail("""
        \(file.name) differs from its golden file, \(Self.firstDifference(expected: String(decoding: expected, as: UTF8.self), actual: file.text))
        diff -u \(golden.appendingPathComponent(file.name).path) \(actual.path)
        If the change is meant, \(regenerate).
        """)
    }
  }

  /// The files `relua types Scripts/Features` writes at the repository's root (paths in them are
  /// relative to it, as the command shows them).
  static func generateShippedFeatures() async throws -> [LuaTypesGenerator.File] {
    let root = ShippedFeatures.repositoryRoot.path
    let previous = FileManager.default.currentDirectoryPath
    guard FileManager.default.changeCurrentDirectoryPath(root) else { throw CocoaError(.fileNoSuchFile) }
    defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
    let generator = LuaTypesGenerator()
    for file in ShippedFeatures.files() {
      try await generator.add(script: String(file.dropFirst(root.count + 1)))
    }
    return generator.files()
  }

  /// Golden/ made to hold exactly `files`.
  private static func replaceGoldenFiles(with files: [LuaTypesGenerator.File]) throws {
    let manager = FileManager.default
    try manager.createDirectory(at: directory, withIntermediateDirectories: true)
    for name in try manager.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".lua") {
      try manager.removeItem(at: directory.appendingPathComponent(name))
    }
    for file in files { try Data(file.text.utf8).write(to: directory.appendingPathComponent(file.name)) }
  }

  /// "from line N: expected … got …" for the first line that differs.
  static func firstDifference(expected: String, actual: String) -> String {
    let expectedLines = expected.components(separatedBy: "\n")
    let actualLines = actual.components(separatedBy: "\n")
    for index in 0..<max(expectedLines.count, actualLines.count) {
      let want = index < expectedLines.count ? expectedLines[index] : nil
      let got = index < actualLines.count ? actualLines[index] : nil
      guard want != got else { continue }
      return """
        from line \(index + 1) (\(expectedLines.count) lines expected, \(actualLines.count) written):
          expected: \(want.map { "\"\($0)\"" } ?? "(end of file)")
          written:  \(got.map { "\"\($0)\"" } ?? "(end of file)")
        """
    }
    return "in bytes the lines do not show (line endings?)"
  }
}
