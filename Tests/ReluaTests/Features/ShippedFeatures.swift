import Foundation

/// The feature scripts relua ships: every `.lua` file under Scripts/Features (each returns its
/// feature), sorted, as absolute paths.
enum ShippedFeatures {
  static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static func files() -> [String] {
    let features = repositoryRoot.appendingPathComponent("Scripts/Features")
    let enumerator = FileManager.default.enumerator(atPath: features.path)
    var files: [String] = []
    while let relative = enumerator?.nextObject() as? String {
      if relative.hasSuffix(".lua") { files.append(features.appendingPathComponent(relative).path) }
    }
    return files.sorted()
  }

  /// `CaseStudies/Stack.lua` for a path under Scripts/Features.
  static func shortName(_ file: String) -> String {
    let prefix = repositoryRoot.appendingPathComponent("Scripts/Features").path + "/"
    return file.hasPrefix(prefix) ? String(file.dropFirst(prefix.count)) : file
  }
}
