/// The diff behind ``ReluaViewPatch/changes(from:to:)``.
enum ReluaViewDiff {
  /// Appends the patches turning `old` (at `path`) into `new`. A container compares its children
  /// as it goes (not the whole subtree first, which would walk it twice).
  static func diff(_ old: ReluaViewNode, _ new: ReluaViewNode, path: inout [Int], into patches: inout [ReluaViewPatch]) {
    switch (old, new) {
    case (.vstack(let a), .vstack(let b)) where a.count == b.count,
      (.hstack(let a), .hstack(let b)) where a.count == b.count:
      children(a, b, path: &path, into: &patches)
    case (.section(let titleA, let a), .section(let titleB, let b)) where titleA == titleB && a.count == b.count:
      children(a, b, path: &path, into: &patches)
    case (.toolbar(let screenA, let a), .toolbar(let screenB, let b)) where screenA == screenB && a.count == b.count:
      children(a, b, path: &path, into: &patches)
    case (.list(let a), .list(let b)):
      if !rows(a, b, path: &path, into: &patches) { patches.append(.replace(at: path, node: new)) }
    default:
      if old != new { patches.append(.replace(at: path, node: new)) }
    }
  }

  private static func children(_ a: [ReluaViewNode], _ b: [ReluaViewNode], path: inout [Int], into patches: inout [ReluaViewPatch]) {
    for index in a.indices where a[index] != b[index] {
      path.append(index)
      diff(a[index], b[index], path: &path, into: &patches)
      path.removeLast()
    }
  }

  /// A keyed diff of two lists' rows; false when an id repeats in either (then the list is replaced).
  /// A kept row whose content changed is patched inside, unless its content is replaced whole
  /// anyway (then it travels in the `rows` patch, as a new row does).
  private static func rows(_ a: ReluaViewRows, _ b: ReluaViewRows, path: inout [Int], into patches: inout [ReluaViewPatch]) -> Bool {
    // Chunks the two lists share hold the same rows: only the others are compared.
    if a.count == b.count, let changed = a.positionsMaybeChanged(in: b) {
      // The same ids in the same order (the common case: a row changed inside): rows compared by
      // position. A row sent whole names its id, so then no id may repeat.
      var whole: [ReluaViewRow] = []
      var inside: [ReluaViewPatch] = []
      for position in changed where !sameContent(a[position], b[position]) {
        changedRow(from: a[position].content, to: b[position], at: position, path: &path, whole: &whole, inside: &inside)
      }
      if !whole.isEmpty {
        var ids = Set<Value>()
        guard a.allSatisfy({ ids.insert($0.id).inserted }) else { return false }
        patches.append(.rows(at: path, ids: nil, rows: whole))
      }
      patches.append(contentsOf: inside)
      return true
    }
    var oldContent: [Value: Int] = [:]
    oldContent.reserveCapacity(a.count)
    for (index, row) in a.enumerated() where oldContent.updateValue(index, forKey: row.id) != nil { return false }
    var seen = Set<Value>()
    seen.reserveCapacity(b.count)
    for row in b where !seen.insert(row.id).inserted { return false }

    var whole: [ReluaViewRow] = []
    var inside: [ReluaViewPatch] = []
    for (position, row) in b.enumerated() {
      guard let index = oldContent[row.id] else {
        whole.append(row)
        continue
      }
      if !sameContent(a[index], row) {
        changedRow(from: a[index].content, to: row, at: position, path: &path, whole: &whole, inside: &inside)
      }
    }
    patches.append(.rows(at: path, ids: b.map(\.id), rows: whole))
    patches.append(contentsOf: inside)
    return true
  }

  /// Whether a kept row's content is unchanged: O(1) for a row the reader reused (its revision),
  /// so a forEach list with one changed row costs a check per row of its chunk (the chunks the
  /// two lists share are not looked at) and that row's diff.
  @inline(__always)
  private static func sameContent(_ a: ReluaViewRow, _ b: ReluaViewRow) -> Bool {
    if let revision = a.revision, revision == b.revision { return true }
    return a.content == b.content
  }

  /// A kept row whose content changed: patched inside, or sent whole when it is replaced anyway.
  private static func changedRow(
    from before: ReluaViewNode, to row: ReluaViewRow, at position: Int, path: inout [Int],
    whole: inout [ReluaViewRow], inside: inout [ReluaViewPatch]
  ) {
    let start = inside.count
    path.append(position)
    diff(before, row.content, path: &path, into: &inside)
    if inside.count == start + 1, case .replace(let at, _) = inside[start], at == path {
      inside.removeLast()
      whole.append(row)
    }
    path.removeLast()
  }
}
