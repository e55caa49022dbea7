import Relua

/// The pieces of lua-language-server annotations (LuaCATS) that `relua types` writes: type
/// expressions, classes with fields, and how names and strings are spelled in them.

/// A type as an annotation writes it: `integer`, `Features.Counter.State`, `string[]`,
/// `"increment"`, `integer|string`, `table?`.
indirect enum LuaAnnotationType: Hashable, Sendable {
  /// A built-in type (`integer`, `table`, `any`) or a class or alias name.
  case name(String)
  /// A string literal type: `"increment"`.
  case literal(String)
  case list(LuaAnnotationType)
  case optional(LuaAnnotationType)
  case union([LuaAnnotationType])
  /// A function type written out (`fun(state: X.State)`), kept as text.
  case function(String)

  static let any = LuaAnnotationType.name("any")
  static let table = LuaAnnotationType.name("table")

  var rendered: String {
    switch self {
    case .name(let name): return name
    case .literal(let text): return LuaAnnotation.quoted(text)
    case .list(let element): return element.isCompound ? "(\(element.rendered))[]" : element.rendered + "[]"
    case .optional(let wrapped): return wrapped.isCompound ? "(\(wrapped.rendered))?" : wrapped.rendered + "?"
    case .union(let members): return members.map(\.rendered).joined(separator: "|")
    case .function(let text): return text
    }
  }

  /// Whether it needs parentheses before `[]` or `?`.
  private var isCompound: Bool {
    switch self {
    case .union(let members): return members.count > 1
    case .optional, .function: return true
    case .name, .literal, .list: return false
    }
  }

  /// The type of an action's payload as `actions` declares it; nil for none (`{}`).
  init?(payload: PayloadType) {
    switch payload {
    case .none: return nil
    case .integer: self = .name("integer")
    case .float, .number: self = .name("number")  // (lua-language-server has no float type)
    case .string: self = .name("string")
    case .boolean: self = .name("boolean")
    case .table: self = .table
    case .any: self = .any
    case .array(let element): self = .list(LuaAnnotationType(payload: element) ?? .any)
    case .optional(let wrapped): self = .optional(LuaAnnotationType(payload: wrapped) ?? .any)
    }
  }
}

/// `---@class Name: Parent` and its `---@field` lines.
struct LuaClassAnnotation: Equatable, Sendable {
  struct Field: Equatable, Sendable {
    var name: String
    var type: LuaAnnotationType
    var optional: Bool = false
    var note: String?
  }

  var name: String
  var parent: String?
  /// Lines of description above the class.
  var notes: [String] = []
  var fields: [Field] = []
  /// Whether other fields may be there too (`---@field [string] any`): a state's fields that
  /// start as nil are in no initial state, so no class can name them.
  var isOpen = false

  var lines: [String] {
    var lines = notes.map { "---" + $0 }
    lines.append("---@class " + name + (parent.map { ": " + $0 } ?? ""))
    for field in fields {
      let type = field.type.rendered
      // A description after a function type would read as its return type: put it in parentheses.
      let spelled = field.note != nil && type.hasPrefix("fun(") ? "(\(type))" : type
      lines.append("---@field \(LuaAnnotation.fieldName(field.name))\(field.optional ? "?" : "") \(spelled)"
        + (field.note.map { " " + $0 } ?? ""))
    }
    if isOpen { lines.append("---@field [string] any") }
    return lines
  }
}

enum LuaAnnotation {
  static let keywords: Set<String> = [
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
    "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
  ]
  /// Words a `---@field` line reads as a visibility before the name.
  static let visibilities: Set<String> = ["public", "private", "protected", "package"]

  static func isIdentifier(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else {
      return false
    }
    return text.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0) }
      && !keywords.contains(text)
  }

  /// A field's name as `---@field` takes it: `count`, or `["end"]`, `["a b"]`.
  static func fieldName(_ name: String) -> String {
    isIdentifier(name) && !visibilities.contains(name) ? name : "[\(quoted(name))]"
  }

  /// A Lua string literal in double quotes (also a literal type: `"increment"`): relua's own
  /// `quoteLuaString` (control characters as three-digit `\ddd`, so a digit after one stays itself).
  static func quoted(_ text: String) -> String { quoteLuaString(text) }

  /// A segment of a type name made from free text (a file or feature name): letters, digits and
  /// `_` only, not starting with a digit (`relua-todo` → `relua_todo`).
  static func nameSegment(_ text: String) -> String {
    var segment = String(text.unicodeScalars.map { scalar -> Character in
      scalar == "_" || (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))) ? Character(scalar) : "_"
    })
    if segment.isEmpty { segment = "_" }
    if let first = segment.unicodeScalars.first, ("0"..."9").contains(first) { segment = "_" + segment }
    return segment
  }

  /// A Lua local variable's name for a class name: `Features.Counter.Store` → `Features_Counter_Store`.
  static func localName(_ className: String) -> String {
    nameSegment(className.replacingOccurrences(of: ".", with: "_"))
  }
}
