import Foundation
import Relua

/// The patches that turn a screen's tree `old` into `new`, as the JSON array the page applies
/// (the view patch format: docs/DESIGN-NOTES.md, "Web app"); `[]` when nothing changed.
///
/// Until the tree diff lands this sends the whole tree as one `replace` of the root: the page's
/// applier reconciles it with what it shows, so focus and rows survive. (The one line to swap.)
enum WebAppPatches {
  static func json(from old: ReluaViewNode, to new: ReluaViewNode) throws -> String {
    guard old != new else { return "[]" }
    return try WebAppJSON.encode([RootReplace(node: new)])
  }

  private struct RootReplace: Encodable {
    var op = "replace"
    var at: [Int] = []
    var node: ReluaViewNode
  }
}

/// JSON as the page reads it: keys sorted, slashes as they are.
enum WebAppJSON {
  static func encode(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  /// `text` as a JSON string literal.
  static func string(_ text: String) -> String { (try? encode(text)) ?? "\"\"" }
}
