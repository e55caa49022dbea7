import Composable

/// One step into a value: a record field, a 0-based position in an array or identified
/// collection, or an element of an identified collection by its id.
package enum PathComponent: Hashable, Sendable {
  case key(String)
  case index(Int)
  case id(Value)
}

package typealias ValuePath = [PathComponent]

extension PathComponent: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
  package init(stringLiteral value: String) { self = .key(value) }
  package init(integerLiteral value: Int) { self = .index(value) }
}

/// Renders a path the way Lua code would write it, with 1-based positions:
/// `state.counter.count`, `state.results[3]`, `state["odd key"]`, `state.results[id = "a"]`.
package func describePath(_ path: some Sequence<PathComponent>, root: String = "state") -> String {
  var text = root
  for component in path { text += describeComponent(component) }
  return text
}

/// `describePath` for a path that may be very long (a too-deep value): its first and last steps.
func describeLongPath(_ path: ValuePath, root: String = "state") -> String {
  guard path.count > 8 else { return describePath(path, root: root) }
  return describePath(path.prefix(4), root: root) + "…" + describePath(path.suffix(2), root: "") + " (\(path.count) steps)"
}

func describeComponent(_ component: PathComponent) -> String {
  switch component {
  case .key(let key): return isLuaIdentifier(key) ? "." + key : "[" + quoteLuaString(key, elision: .standard) + "]"
  case .index(let position): return "[\(position + 1)]"
  case .id(let id): return "[id = \(id)]"
  }
}

private let luaKeywords: Set<String> = [
  "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
  "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
]

/// Whether `key` can be written bare in Lua (`t.key`, `{ key = … }`).
func isLuaIdentifier(_ key: String) -> Bool {
  guard let first = key.utf8.first, first == UInt8(ascii: "_") || isASCIILetter(first) else { return false }
  for byte in key.utf8 where !(byte == UInt8(ascii: "_") || isASCIILetter(byte) || (byte >= 48 && byte <= 57)) {
    return false
  }
  return !luaKeywords.contains(key)
}

private func isASCIILetter(_ byte: UInt8) -> Bool { (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) }
