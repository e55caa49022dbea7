/// Applying ``ReluaViewPatch``es: what a renderer holding the old tree does with a change.
extension ReluaViewNode {
  /// This tree with `patches` applied in order. A patch that does not fit (a path to no node, a
  /// `rows` patch at a node that is not a list, a new row without its content, an id twice) throws
  /// a ``ReluaViewPatchError``, never traps.
  public func applying(_ patches: [ReluaViewPatch]) throws -> ReluaViewNode {
    var tree = self
    for patch in patches {
      switch patch {
      case .replace(let at, let node):
        tree = try tree.updating(at: at[...], whole: at) { _ in node }
      case .rows(let at, let ids, let rows):
        tree = try tree.updating(at: at[...], whole: at) { node in
          guard case .list(let old) = node else {
            throw ReluaViewPatchError("a rows patch at \(at) found a \(node.kind), not a list")
          }
          return .list(try Self.rows(old, ids: ids, rows: rows, at: at))
        }
      }
    }
    return tree
  }

  private func updating(
    at path: ArraySlice<Int>, whole: [Int], _ change: (ReluaViewNode) throws -> ReluaViewNode
  ) throws -> ReluaViewNode {
    guard let index = path.first else { return try change(self) }
    let rest = path.dropFirst()
    func child(_ count: Int) throws {
      guard index >= 0, index < count else {
        throw ReluaViewPatchError("no child \(index) at \(Array(whole[..<(whole.count - path.count)])) (a \(kind) of \(count)) for the patch at \(whole)")
      }
    }
    switch self {
    case .vstack(var nodes):
      try child(nodes.count)
      nodes[index] = try nodes[index].updating(at: rest, whole: whole, change)
      return .vstack(nodes)
    case .hstack(var nodes):
      try child(nodes.count)
      nodes[index] = try nodes[index].updating(at: rest, whole: whole, change)
      return .hstack(nodes)
    case .section(let title, var nodes):
      try child(nodes.count)
      nodes[index] = try nodes[index].updating(at: rest, whole: whole, change)
      return .section(title: title, children: nodes)
    case .toolbar(let screen, var nodes):
      try child(nodes.count)
      nodes[index] = try nodes[index].updating(at: rest, whole: whole, change)
      return .toolbar(screen: screen, items: nodes)
    case .list(var rows):
      try child(rows.count)
      rows[index].content = try rows[index].content.updating(at: rest, whole: whole, change)
      return .list(rows)
    default:
      try child(0)
      return self
    }
  }

  private static func rows(_ old: ReluaViewRows, ids: [Value]?, rows: [ReluaViewRow], at: [Int]) throws -> ReluaViewRows {
    var given: [Value: ReluaViewNode] = [:]
    for row in rows where given.updateValue(row.content, forKey: row.id) != nil {
      throw ReluaViewPatchError("the rows patch at \(at) gives row \(row.id.luaLiteral()) twice")
    }
    guard let ids else {
      // The order is unchanged: only contents change, and only of rows the list has.
      var out = old
      var used = 0
      for index in out.indices {
        if let content = given[out[index].id] {
          out[index].content = content
          used += 1
        }
      }
      if used < rows.count, let stray = rows.first(where: { row in !old.contains { $0.id == row.id } }) {
        throw ReluaViewPatchError("the rows patch at \(at) gives row \(stray.id.luaLiteral()), which the list does not have (a new row needs ids)")
      }
      return out
    }
    var kept: [Value: ReluaViewNode] = [:]
    for row in old where kept[row.id] == nil { kept[row.id] = row.content }
    var seen = Set<Value>()
    return ReluaViewRows(try ids.map { id in
      guard seen.insert(id).inserted else { throw ReluaViewPatchError("the rows patch at \(at) lists id \(id.luaLiteral()) twice") }
      guard let content = given[id] ?? kept[id] else {
        throw ReluaViewPatchError("the rows patch at \(at) adds row \(id.luaLiteral()) without its content")
      }
      return ReluaViewRow(id: id, content: content)
    })
  }
}
