import Composable

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
///
/// The format's elision bounds it (`Elision.lines`, 40 by default): past that, each table says how
/// many of its entries changed that were not shown (`… 999,990 more changes`), and whole values
/// on `−`/`+` lines are cut as printouts are. A million-row change prints a screenful, in the
/// time it takes to compare the rows.
///
/// With `rowsShown` (the REPL's diff after each send), rows of a list added or removed one after
/// the other are summed up past the first few, each shown on its own line with its nested tables
/// collapsed: a page of search results reads in a screenful.
///
/// ```
///     items = {
/// +     { id = 1, liked = false, repository = { … 9 more } },
/// +     { id = 2, liked = false, repository = { … 9 more } },
/// +     … 28 more rows [id=3…id=30]
///     },
/// ```
package enum ValueDiff {
  package static let removedMarker: Character = "\u{2212}"  // − (minus sign), as CustomDump
  package static let addedMarker: Character = "+"

  /// The diff from `old` to `new`, or nil when they are equal. `format: .multiLine` shows all.
  /// `rowsShown`: rows added or removed in a run shown before the rest are summed up (nil: all,
  /// as a test failure shows them).
  package static func lines(
    from old: Value, to new: Value, format: LuaLiteralFormat = .multiLine.elided(), rowsShown: Int? = nil
  ) -> String? {
    guard old != new else { return nil }
    var writer = DiffWriter(format: format, rowsShown: rowsShown)
    writer.diff(old, new, prefix: "", suffix: "", indent: 0, depth: 0)
    return writer.lines.joined(separator: "\n")
  }
}

/// Writes a diff's lines, taking them from the elision's budget of lines.
private struct DiffWriter {
  let format: LuaLiteralFormat
  var lines: [String] = []
  var budget: Int

  /// Rows added or removed in a run shown before the rest are summed up; nil: all shown.
  let rowsShown: Int?
  /// How a row of such a run is shown: its own fields, its nested tables collapsed.
  let rowFormat: LuaLiteralFormat

  init(format: LuaLiteralFormat, rowsShown: Int? = nil) {
    self.format = format
    self.rowsShown = rowsShown
    var rowElision = format.elision
    rowElision.depth = min(rowElision.depth, 1)
    rowFormat = LuaLiteralFormat(width: format.width, elision: rowElision)
    budget = format.elision.lines
  }

  mutating func append(_ marker: Character, _ text: String) {
    lines.append(String(marker) + " " + text)
    budget -= 1
  }

  /// A table's entries, as they are compared: what changed is shown while lines are left, then
  /// counted. The closing brace and the summary lines are reserved before each entry is shown.
  struct Entries {
    let indent: Int
    var unchanged = 0
    var hidden = 0
    /// The rows being added (or removed) one after the other (with `rowsShown`).
    var run: RowRun?
  }

  /// Rows added (or removed) in a run: how many were shown, and those summed up after them.
  struct RowRun {
    let marker: Character
    var shown = 0
    var more = 0
    var firstID: Value?
    var lastID: Value?
  }

  mutating func diff(_ old: Value, _ new: Value, prefix: String, suffix: String, indent: Int, depth: Int) {
    switch (old, new) {
    case (.record(let oldRecord), .record(let newRecord)) where opensAsTable(old, new, depth: depth):
      var entries = open(prefix: prefix, indent: indent)
      // Both records keep their fields sorted by key: walked together.
      var (i, j) = (0, 0)
      let (oldFields, newFields) = (oldRecord.fields, newRecord.fields)
      while i < oldFields.count || j < newFields.count {
        let key: String
        var (before, after) = (Value.null, Value.null)
        if j == newFields.count || (i < oldFields.count && keyPrecedes(oldFields[i].key, newFields[j].key)) {
          (key, before) = (oldFields[i].key, oldFields[i].value)
          i += 1
        } else if i == oldFields.count || keyPrecedes(newFields[j].key, oldFields[i].key) {
          (key, after) = (newFields[j].key, newFields[j].value)
          j += 1
        } else {
          (key, before, after) = (oldFields[i].key, oldFields[i].value, newFields[j].value)
          i += 1
          j += 1
        }
        change(before, after, key: key, in: &entries, depth: depth)
      }
      close(&entries, suffix: suffix)
    case (.array(let oldElements), .array(let newElements)) where opensAsTable(old, new, depth: depth):
      sequence(oldElements, newElements, prefix: prefix, suffix: suffix, indent: indent, depth: depth)
    case (.identified(let oldCollection), .identified(let newCollection)) where opensAsTable(old, new, depth: depth):
      if !byID(oldCollection, newCollection, prefix: prefix, suffix: suffix, indent: indent, depth: depth) {
        sequence(
          oldCollection.elements, newCollection.elements, identified: true, prefix: prefix, suffix: suffix, indent: indent,
          depth: depth)
      }
    default:
      // Half the lines left for the old value, the rest for the new one.
      literal(old, marker: ValueDiff.removedMarker, prefix: prefix, suffix: suffix, indent: indent, lines: max(1, budget / 2))
      literal(new, marker: ValueDiff.addedMarker, prefix: prefix, suffix: suffix, indent: indent, lines: budget)
    }
  }

  /// Sequences: the common head and tail are collapsed; a middle of equal length is compared
  /// element by element, otherwise removed and added as a whole.
  private mutating func sequence(
    _ old: [Value], _ new: [Value], identified: Bool = false, prefix: String, suffix: String, indent: Int, depth: Int
  ) {
    var head = 0
    while head < old.count, head < new.count, old[head] == new[head] { head += 1 }
    var tail = 0
    while tail < old.count - head, tail < new.count - head, old[old.count - 1 - tail] == new[new.count - 1 - tail] { tail += 1 }
    var entries = open(prefix: prefix, indent: indent)
    entries.unchanged = head
    let oldMiddle = old[head..<(old.count - tail)]
    let newMiddle = new[head..<(new.count - tail)]
    if oldMiddle.count == newMiddle.count {
      for (before, after) in zip(oldMiddle, newMiddle) {
        // Two different elements of an identified collection are not one element changed.
        if identified && before != after && IdentifiedValues.id(of: before) != IdentifiedValues.id(of: after) {
          change(before, .null, key: nil, rowID: IdentifiedValues.id(of: before), in: &entries, depth: depth)
          change(.null, after, key: nil, rowID: IdentifiedValues.id(of: after), in: &entries, depth: depth)
        } else {
          change(before, after, key: nil, in: &entries, depth: depth)
        }
      }
    } else {
      // The removed ones get half the lines when some are added.
      let kept = newMiddle.isEmpty ? 0 : budget / 2
      budget -= kept
      for element in oldMiddle { change(element, .null, key: nil, rowID: rowID(element, identified), in: &entries, depth: depth) }
      endRun(&entries)
      budget += kept
      for element in newMiddle { change(.null, element, key: nil, rowID: rowID(element, identified), in: &entries, depth: depth) }
    }
    entries.unchanged += tail
    close(&entries, suffix: suffix)
  }

  /// Identified collections whose elements kept their order, by id: an element added anywhere is
  /// one `+` row, a removed one one `−` row, a changed one is opened under its id (`[id=3] = {`),
  /// the rest collapsed. False (nothing written) when elements moved: then by position.
  private mutating func byID(
    _ old: IdentifiedValues, _ new: IdentifiedValues, prefix: String, suffix: String, indent: Int, depth: Int
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
    var entries = open(prefix: prefix, indent: indent)
    var oldIndex = 0
    func isGone(_ element: Value) -> Bool { newPositions[IdentifiedValues.id(of: element)] == nil }
    for element in new.elements {
      // Old elements gone before this one.
      while oldIndex < old.elements.count, isGone(old.elements[oldIndex]) {
        let gone = old.elements[oldIndex]
        change(gone, .null, key: nil, rowID: IdentifiedValues.id(of: gone), in: &entries, depth: depth)
        oldIndex += 1
      }
      let id = IdentifiedValues.id(of: element)
      if oldIndex < old.elements.count, IdentifiedValues.id(of: old.elements[oldIndex]) == id {
        change(old.elements[oldIndex], element, key: nil, label: "[id=\(id.luaLiteral())] = ", in: &entries, depth: depth)
        oldIndex += 1
      } else {
        change(.null, element, key: nil, rowID: id, in: &entries, depth: depth)
      }
    }
    for element in old.elements[oldIndex...] where isGone(element) {
      change(element, .null, key: nil, rowID: IdentifiedValues.id(of: element), in: &entries, depth: depth)
    }
    close(&entries, suffix: suffix)
    return true
  }

  private mutating func open(prefix: String, indent: Int) -> Entries {
    append(" ", String(repeating: " ", count: indent) + prefix + "{")
    budget -= 1  // the closing brace
    return Entries(indent: indent + 2)
  }

  /// After the last entry: what was hidden in one line (`… 12 more changes (3 unchanged)`), or the
  /// last unchanged ones; then the closing brace.
  private mutating func close(_ entries: inout Entries, suffix: String) {
    endRun(&entries)
    if entries.hidden > 0 {
      let unchanged = entries.unchanged > 0 ? " (\(Elision.grouped(entries.unchanged)) unchanged)" : ""
      append(" ", String(repeating: " ", count: entries.indent) + Elision.moreChanges(entries.hidden) + unchanged)
    } else {
      flush(&entries)
    }
    budget += 1
    append(" ", String(repeating: " ", count: entries.indent - 2) + "}" + suffix)
  }

  private mutating func flush(_ entries: inout Entries) {
    guard entries.unchanged > 0 else { return }
    append(" ", String(repeating: " ", count: entries.indent) + "… (\(Elision.grouped(entries.unchanged)) unchanged)")
    entries.unchanged = 0
  }

  /// The id of a sequence's element, for a run's summary (nil when the sequence has none).
  private func rowID(_ element: Value, _ identified: Bool) -> Value? {
    identified ? IdentifiedValues.id(of: element) : nil
  }

  /// Ends the run of rows added or removed: those summed up are said in one line
  /// (`+ … 27 more rows [id=4…id=30]`), or counted as hidden changes past the lines.
  private mutating func endRun(_ entries: inout Entries) {
    guard let run = entries.run else { return }
    entries.run = nil
    guard run.more > 0 else { return }
    guard entries.hidden == 0, budget >= 2 else {
      entries.hidden += run.more
      return
    }
    var ids = ""
    if let first = run.firstID, let last = run.lastID {
      ids = " [id=" + first.luaLiteral(.oneLine.elided()) + (run.more > 1 ? "…id=" + last.luaLiteral(.oneLine.elided()) : "") + "]"
    }
    let rows = run.more == 1 ? "row" : "rows"
    append(run.marker, String(repeating: " ", count: entries.indent) + "… \(Elision.grouped(run.more)) more \(rows)" + ids)
  }

  /// One entry of a table (`key` nil in a sequence; `.null` for absent; `rowID`: a sequence's
  /// element's id, when it has ids).
  private mutating func change(
    _ before: Value, _ after: Value, key: String?, label: String? = nil, rowID: Value? = nil, in entries: inout Entries,
    depth: Int
  ) {
    if before == after {
      endRun(&entries)
      entries.unchanged += 1
      return
    }
    var literalFormat = format
    if let rowsShown, key == nil, label == nil, before.isNull || after.isNull {
      // A row added or removed: one of a run, shown while the run has shown fewer than
      // `rowsShown`, summed up after.
      let marker = before.isNull ? ValueDiff.addedMarker : ValueDiff.removedMarker
      if entries.run?.marker != marker {
        endRun(&entries)
        entries.run = RowRun(marker: marker)
      }
      if entries.run!.shown >= rowsShown {
        entries.run!.more += 1
        if entries.run!.firstID == nil { entries.run!.firstID = rowID }
        entries.run!.lastID = rowID
        return
      }
      entries.run!.shown += 1
      literalFormat = rowFormat
    } else {
      endRun(&entries)
    }
    // Lines this change needs at the least (a flush; a line added or removed, a `−`/`+` pair, or a
    // table's `{`, `… n more changes`, `}`), and one kept for what may follow it: the last
    // unchanged entries or the `… n more changes` line. Once one is hidden, the rest are too, so
    // what is shown is a prefix.
    let least = before.isNull || after.isNull ? 1 : opensAsTable(before, after, depth: depth + 1) ? 3 : 2
    guard entries.hidden == 0, budget >= (entries.unchanged > 0 ? 1 : 0) + least + 1 else {
      entries.hidden += 1
      return
    }
    flush(&entries)
    budget -= 1
    let keyPrefix = label ?? key.map { luaKeyLiteral($0, elision: format.elision) + " = " } ?? ""
    if before.isNull {
      literal(after, marker: ValueDiff.addedMarker, prefix: keyPrefix, indent: entries.indent, lines: budget, format: literalFormat)
    } else if after.isNull {
      literal(before, marker: ValueDiff.removedMarker, prefix: keyPrefix, indent: entries.indent, lines: budget, format: literalFormat)
    } else {
      diff(before, after, prefix: keyPrefix, suffix: ",", indent: entries.indent, depth: depth + 1)
    }
    budget += 1
  }

  /// Whether `diff` opens the two as a table rather than printing both whole.
  private func opensAsTable(_ old: Value, _ new: Value, depth: Int) -> Bool {
    guard depth < format.elision.depth else { return false }
    switch (old, new) {
    case (.record, .record), (.array, .array), (.identified, .identified): return true
    default: return false
    }
  }

  /// A whole value on `−` or `+` lines (multi-line when it does not fit), in at most `lines` lines.
  private mutating func literal(
    _ value: Value, marker: Character, prefix: String, suffix: String = ",", indent: Int, lines available: Int,
    format: LuaLiteralFormat? = nil
  ) {
    let pad = String(repeating: " ", count: indent)
    var printer = LuaLiteralPrinter(format ?? self.format, budget: max(1, available))
    let text = printer.literal(value, indent: indent, used: indent)
    let textLines = text.split(separator: "\n", omittingEmptySubsequences: false)
    for (offset, line) in textLines.enumerated() {
      let isLast = offset == textLines.count - 1
      append(marker, (offset == 0 ? pad + prefix : "") + line + (isLast ? suffix : ""))
    }
  }
}

extension Value {
  /// The diff from `self` to `other` (see `ValueDiff`), nil when equal.
  package func diff(to other: Value, format: LuaLiteralFormat = .multiLine.elided(), rowsShown: Int? = nil) -> String? {
    ValueDiff.lines(from: self, to: other, format: format, rowsShown: rowsShown)
  }
}
