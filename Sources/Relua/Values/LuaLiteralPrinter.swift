import Composable

/// Writes values as Lua literals under a format: its width (one line, or one entry per line for
/// containers that do not fit) and its elision, keeping count of the lines it has left (on one
/// line, of the entries). Past a limit it stops and says what it left out, `{ 1, 2, … 999,998
/// more }`, so the work is bounded as well as the text.
///
/// Every literal takes at least one line (or entry) from the budget; a printer given `n` lines
/// writes at most `n`. The closing brace of an open container is reserved before its entries.
struct LuaLiteralPrinter {
  let width: Int?
  let elision: Elision
  /// Lines still to write (multi-line), or entries (one line).
  var budget: Int

  init(_ format: LuaLiteralFormat, budget: Int? = nil) {
    width = format.width
    elision = format.elision
    self.budget = budget ?? format.elision.lines
  }

  /// `used`: columns already taken on the first line (indentation and a `key = ` before it).
  mutating func literal(_ value: Value, indent: Int, used: Int, depth: Int = 0) -> String {
    switch value {
    case .array, .record, .identified:
      return container(value, indent: indent, used: used, depth: depth)
    default:
      budget -= 1
      return scalar(value)
    }
  }

  func scalar(_ value: Value) -> String {
    switch value {
    case .null: return "nil"
    case .boolean(let value): return value ? "true" : "false"
    // Lua reads `-9223372036854775808` as a float (a minus applied to a literal out of range),
    // so the smallest integer is written by name (found by the fuzzer).
    case .integer(let value): return value == .min ? "math.mininteger" : String(value)
    case .float(let value): return luaFloatLiteral(value)
    case .string(let value): return quoteLuaString(value, elision: elision)
    case .array, .record, .identified: return "{…}"
    }
  }

  func key(_ key: String) -> String { luaKeyLiteral(key, elision: elision) + " = " }

  private mutating func container(_ value: Value, indent: Int, used: Int, depth: Int) -> String {
    let count = value.count
    if count == 0 || depth >= elision.depth || budget < 1 {
      budget -= 1
      return count == 0 ? "{}" : "{ " + Elision.more(count) + " }"
    }
    guard let width else { return oneLine(value, count: count, depth: depth) }
    if let line = fitting(value, room: width - used, depth: depth) {
      budget -= 1
      return line
    }
    if budget < 3 {  // no room for `{`, an entry and `}`
      budget -= 1
      return "{ " + Elision.more(count) + " }"
    }
    budget -= 2
    let inner = String(repeating: " ", count: indent + 2)
    var lines: [String] = []
    var shown = 0
    forEachEntry(of: value) { key, element in
      // Room for this entry, and for the `… n more` line if entries are left after it.
      let reserve = shown + 1 < count ? 1 : 0
      guard shown < elision.items, budget >= 1 + reserve else { return false }
      budget -= reserve
      let keyText = key.map(self.key) ?? ""
      lines.append(inner + keyText + literal(element, indent: indent + 2, used: indent + 2 + keyText.count, depth: depth + 1) + ",")
      budget += reserve
      shown += 1
      return true
    }
    if shown < count {
      lines.append(inner + Elision.more(count - shown))
      budget -= 1
    }
    return "{\n" + lines.joined(separator: "\n") + "\n" + String(repeating: " ", count: indent) + "}"
  }

  /// On one line, the budget counting entries: `{ 1, 2, … 998 more }`.
  private mutating func oneLine(_ value: Value, count: Int, depth: Int) -> String {
    budget -= 1
    var parts: [String] = []
    forEachEntry(of: value) { key, element in
      guard parts.count < elision.items, budget >= 1 else { return false }
      parts.append((key.map(self.key) ?? "") + literal(element, indent: 0, used: 0, depth: depth + 1))
      return true
    }
    if parts.count < count { parts.append(Elision.more(count - parts.count)) }
    return "{ " + parts.joined(separator: ", ") + " }"
  }

  /// The one-line form if it fits in `room` columns, else nil; it gives up as soon as it is too
  /// wide, so a long table is not printed to be thrown away.
  private func fitting(_ value: Value, room: Int, depth: Int) -> String? {
    switch value {
    case .array, .record, .identified:
      let count = value.count
      if count == 0 { return room >= 2 ? "{}" : nil }
      if depth >= elision.depth {
        let text = "{ " + Elision.more(count) + " }"
        return text.count <= room ? text : nil
      }
      var text = "{ "
      var shown = 0
      var fits = true
      forEachEntry(of: value) { key, element in
        guard shown < elision.items else { return false }
        let keyText = key.map(self.key) ?? ""
        let left = room - text.count - keyText.count - 2  // and ` }` at least
        guard left > 0, let entry = fitting(element, room: left, depth: depth + 1) else {
          fits = false
          return false
        }
        text += (shown > 0 ? ", " : "") + keyText + entry
        shown += 1
        return true
      }
      guard fits else { return nil }
      if shown < count { text += ", " + Elision.more(count - shown) }
      text += " }"
      return text.count <= room ? text : nil
    default:
      let text = scalar(value)
      return text.count <= room ? text : nil
    }
  }
}

/// Calls `body` with each entry of a container in printing order (a record's fields by key, with
/// the key; a sequence's elements, without) until it returns false.
func forEachEntry(of value: Value, _ body: (String?, Value) -> Bool) {
  switch value {
  case .record(let record):
    for field in record.fields where !body(field.key, field.value) { return }
  case .array(let elements):
    for element in elements where !body(nil, element) { return }
  case .identified(let collection):
    for element in collection.elements where !body(nil, element) { return }
  default: return
  }
}
