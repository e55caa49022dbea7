/// A diff of two values in Lua syntax, in the style of TCA's (CustomDump's) test failures:
/// `−` lines show the old value, `+` lines the new one, containers that changed are opened to
/// show only what changed, and unchanged siblings are collapsed into `… (n unchanged)`.
///
/// ```
///   {
///     counter = {
/// −     count = 1,
/// +     count = 2,
///       … (2 unchanged)
///     },
///   }
/// ```
public enum ValueDiff {
  public static let removedMarker: Character = "\u{2212}"  // − (minus sign), as CustomDump
  public static let addedMarker: Character = "+"

  /// The diff from `old` to `new`, or nil when they are equal.
  public static func lines(from old: Value, to new: Value, format: LuaLiteralFormat = .multiLine) -> String? {
    guard old != new else { return nil }
    var lines: [Line] = []
    diff(old, new, prefix: "", suffix: "", indent: 0, format: format, into: &lines)
    return lines.map { String($0.marker) + " " + $0.text }.joined(separator: "\n")
  }

  struct Line {
    let marker: Character
    let text: String
  }

  private static func diff(
    _ old: Value, _ new: Value, prefix: String, suffix: String, indent: Int, format: LuaLiteralFormat,
    into lines: inout [Line]
  ) {
    let pad = String(repeating: " ", count: indent)
    switch (old, new) {
    case (.record(let oldRecord), .record(let newRecord)) where old != new:
      lines.append(Line(marker: " ", text: pad + prefix + "{"))
      var unchanged = 0
      let keys = Set(oldRecord.keys).union(newRecord.keys).sorted(by: keyPrecedes)
      for key in keys {
        let (before, after) = (oldRecord[key], newRecord[key])
        if before == after { unchanged += 1; continue }
        flush(&unchanged, indent: indent + 2, into: &lines)
        let keyPrefix = luaKeyLiteral(key) + " = "
        if before.isNull {
          literal(after, marker: ValueDiff.addedMarker, prefix: keyPrefix, indent: indent + 2, format: format, into: &lines)
        } else if after.isNull {
          literal(before, marker: ValueDiff.removedMarker, prefix: keyPrefix, indent: indent + 2, format: format, into: &lines)
        } else {
          diff(before, after, prefix: keyPrefix, suffix: ",", indent: indent + 2, format: format, into: &lines)
        }
      }
      flush(&unchanged, indent: indent + 2, into: &lines)
      lines.append(Line(marker: " ", text: pad + "}" + suffix))
    case (.array(let oldElements), .array(let newElements)) where old != new:
      sequence(oldElements, newElements, prefix: prefix, suffix: suffix, indent: indent, format: format, into: &lines)
    case (.identified(let oldCollection), .identified(let newCollection)) where old != new:
      if !byID(oldCollection, newCollection, prefix: prefix, suffix: suffix, indent: indent, format: format, into: &lines) {
        sequence(
          oldCollection.elements, newCollection.elements, identified: true, prefix: prefix, suffix: suffix, indent: indent,
          format: format, into: &lines)
      }
    default:
      literal(old, marker: ValueDiff.removedMarker, prefix: prefix, suffix: suffix, indent: indent, format: format, into: &lines)
      literal(new, marker: ValueDiff.addedMarker, prefix: prefix, suffix: suffix, indent: indent, format: format, into: &lines)
    }
  }

  /// Sequences: the common head and tail are collapsed; a middle of equal length is compared
  /// element by element, otherwise removed and added as a whole.
  private static func sequence(
    _ old: [Value], _ new: [Value], identified: Bool = false, prefix: String, suffix: String, indent: Int,
    format: LuaLiteralFormat, into lines: inout [Line]
  ) {
    let pad = String(repeating: " ", count: indent)
    var head = 0
    while head < old.count, head < new.count, old[head] == new[head] { head += 1 }
    var tail = 0
    while tail < old.count - head, tail < new.count - head, old[old.count - 1 - tail] == new[new.count - 1 - tail] { tail += 1 }
    lines.append(Line(marker: " ", text: pad + prefix + "{"))
    var unchanged = head
    flush(&unchanged, indent: indent + 2, into: &lines)
    let oldMiddle = old[head..<(old.count - tail)]
    let newMiddle = new[head..<(new.count - tail)]
    if oldMiddle.count == newMiddle.count {
      for (before, after) in zip(oldMiddle, newMiddle) {
        if before == after { unchanged += 1; continue }
        flush(&unchanged, indent: indent + 2, into: &lines)
        // Two different elements of an identified collection are not one element changed.
        if identified && IdentifiedValues.id(of: before) != IdentifiedValues.id(of: after) {
          literal(before, marker: ValueDiff.removedMarker, prefix: "", indent: indent + 2, format: format, into: &lines)
          literal(after, marker: ValueDiff.addedMarker, prefix: "", indent: indent + 2, format: format, into: &lines)
        } else {
          diff(before, after, prefix: "", suffix: ",", indent: indent + 2, format: format, into: &lines)
        }
      }
      flush(&unchanged, indent: indent + 2, into: &lines)
    } else {
      for element in oldMiddle {
        literal(element, marker: ValueDiff.removedMarker, prefix: "", indent: indent + 2, format: format, into: &lines)
      }
      for element in newMiddle {
        literal(element, marker: ValueDiff.addedMarker, prefix: "", indent: indent + 2, format: format, into: &lines)
      }
    }
    unchanged = tail
    flush(&unchanged, indent: indent + 2, into: &lines)
    lines.append(Line(marker: " ", text: pad + "}" + suffix))
  }

  /// Identified collections whose elements kept their order, by id: an element added anywhere is
  /// one `+` row, a removed one one `−` row, a changed one is opened under its id (`[id=3] = {`),
  /// the rest collapsed. False (nothing written) when elements moved: then by position.
  private static func byID(
    _ old: IdentifiedValues, _ new: IdentifiedValues, prefix: String, suffix: String, indent: Int,
    format: LuaLiteralFormat, into lines: inout [Line]
  ) -> Bool {
    var newPositions: [Value: Int] = [:]
    for (position, element) in new.elements.enumerated() { newPositions[IdentifiedValues.id(of: element)] = position }
    // The ids both have must be in the same order.
    var last = -1
    for element in old.elements {
      guard let position = newPositions[IdentifiedValues.id(of: element)] else { continue }
      guard position > last else { return false }
      last = position
    }
    var oldByID: [Value: Value] = [:]
    for element in old.elements { oldByID[IdentifiedValues.id(of: element)] = element }
    let pad = String(repeating: " ", count: indent)
    lines.append(Line(marker: " ", text: pad + prefix + "{"))
    var unchanged = 0
    var oldIndex = 0
    for element in new.elements {
      let id = IdentifiedValues.id(of: element)
      // Old elements gone before this one.
      while oldIndex < old.elements.count, newPositions[IdentifiedValues.id(of: old.elements[oldIndex])] == nil {
        flush(&unchanged, indent: indent + 2, into: &lines)
        literal(old.elements[oldIndex], marker: ValueDiff.removedMarker, prefix: "", indent: indent + 2, format: format, into: &lines)
        oldIndex += 1
      }
      guard let before = oldByID[id] else {
        flush(&unchanged, indent: indent + 2, into: &lines)
        literal(element, marker: ValueDiff.addedMarker, prefix: "", indent: indent + 2, format: format, into: &lines)
        continue
      }
      oldIndex += 1
      if before == element {
        unchanged += 1
        continue
      }
      flush(&unchanged, indent: indent + 2, into: &lines)
      diff(before, element, prefix: "[id=\(id.luaLiteral())] = ", suffix: ",", indent: indent + 2, format: format, into: &lines)
    }
    while oldIndex < old.elements.count {
      if newPositions[IdentifiedValues.id(of: old.elements[oldIndex])] == nil {
        flush(&unchanged, indent: indent + 2, into: &lines)
        literal(old.elements[oldIndex], marker: ValueDiff.removedMarker, prefix: "", indent: indent + 2, format: format, into: &lines)
      }
      oldIndex += 1
    }
    flush(&unchanged, indent: indent + 2, into: &lines)
    lines.append(Line(marker: " ", text: pad + "}" + suffix))
    return true
  }

  private static func flush(_ unchanged: inout Int, indent: Int, into lines: inout [Line]) {
    guard unchanged > 0 else { return }
    lines.append(Line(marker: " ", text: String(repeating: " ", count: indent) + "… (\(unchanged) unchanged)"))
    unchanged = 0
  }

  /// A whole value on `−` or `+` lines (multi-line when it does not fit).
  private static func literal(
    _ value: Value, marker: Character, prefix: String, suffix: String = ",", indent: Int, format: LuaLiteralFormat,
    into lines: inout [Line]
  ) {
    let pad = String(repeating: " ", count: indent)
    let text = value.luaLiteral(format, indent: indent)
    let textLines = text.split(separator: "\n", omittingEmptySubsequences: false)
    for (offset, line) in textLines.enumerated() {
      let isLast = offset == textLines.count - 1
      lines.append(Line(marker: marker, text: (offset == 0 ? pad + prefix : "") + line + (isLast ? suffix : "")))
    }
  }
}

extension Value {
  /// The diff from `self` to `other` (see `ValueDiff`), nil when equal.
  public func diff(to other: Value, format: LuaLiteralFormat = .multiLine) -> String? {
    ValueDiff.lines(from: self, to: other, format: format)
  }
}
