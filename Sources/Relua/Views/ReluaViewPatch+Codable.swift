import Foundation

/// A patch's JSON (the format a page's script reads): `{"op":"replace","at":[0,2],"node":NODE}`,
/// `{"op":"rows","at":[1],"ids":["3","\"abc\""],"rows":[{"id":"3","content":NODE}]}` — ids as the
/// JSON text of the row's id, as in a list's rows; `ids` absent when the order is unchanged.
extension ReluaViewPatch: Codable {
  private enum CodingKeys: String, CodingKey { case op, at, node, ids, rows }

  /// Decodes a patch; an unknown `op` throws.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let op = try container.decode(String.self, forKey: .op)
    let at = try container.decode([Int].self, forKey: .at)
    switch op {
    case "replace":
      self = .replace(at: at, node: try container.decode(ReluaViewNode.self, forKey: .node))
    case "rows":
      let ids = try container.decodeIfPresent([String].self, forKey: .ids)?.map { try Value(json: $0) }
      self = .rows(at: at, ids: ids, rows: try container.decodeIfPresent([ReluaViewRow].self, forKey: .rows) ?? [])
    default:
      throw DecodingError.dataCorruptedError(forKey: .op, in: container, debugDescription: "unknown view patch op '\(op)'")
    }
  }

  /// Encodes it as described above.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .replace(let at, let node):
      try container.encode("replace", forKey: .op)
      try container.encode(at, forKey: .at)
      try container.encode(node, forKey: .node)
    case .rows(let at, let ids, let rows):
      try container.encode("rows", forKey: .op)
      try container.encode(at, forKey: .at)
      if let ids { try container.encode(try ids.map { try $0.json() }, forKey: .ids) }
      try container.encode(rows, forKey: .rows)
    }
  }

  /// Patches as a JSON array, keys sorted (what a page receives; `[]` for no change).
  public static func json(_ patches: [ReluaViewPatch]) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(patches), as: UTF8.self)
  }
}
