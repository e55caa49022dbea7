import Foundation
import Relua

/// The patches that turn a screen's tree `old` into `new`, as the JSON array the page applies
/// (the view patch format: docs/DESIGN-NOTES.md, "Web app"); `[]` when nothing changed.
///
/// Relua's diff (`ReluaViewPatch.changes`): a changed row of a long list is a patch of that row,
/// not the list. The page reconciles a `replace` with what it shows, so focus survives too.
enum WebAppPatches {
  static func json(from old: ReluaViewNode, to new: ReluaViewNode) throws -> String {
    try WebAppJSON.encode(ReluaViewPatch.changes(from: old, to: new))
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
