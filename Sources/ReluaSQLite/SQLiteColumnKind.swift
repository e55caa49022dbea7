import GRDB
import Relua

/// What a column holds, as relua reads and writes it: SQLite's type affinity of the column's
/// declared type (https://www.sqlite.org/datatype3.html, 3.1), plus BOOLEAN — SQLite has no
/// booleans, so a column declared BOOLEAN (or BOOL) holds 0 and 1 and reads back as Lua's
/// `false` and `true`. Every other column reads back what it stores: integers, floats, text.
enum SQLiteColumnKind: Sendable, Equatable {
  case integer, real, text, boolean, numeric
  /// No declared type (BLOB affinity): a value is stored as it is.
  case any

  /// The kind of a column declared `declaredType` (`INTEGER`, `VARCHAR(20)`, `BOOLEAN`, ``).
  init(declaredType: String) {
    let type = declaredType.uppercased()
    if type == "BOOLEAN" || type == "BOOL" { self = .boolean }
    else if type.contains("INT") { self = .integer }
    else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { self = .text }
    else if type.isEmpty || type.contains("BLOB") { self = .any }
    else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") { self = .real }
    else { self = .numeric }
  }

  /// The kind of column made for a field first seen holding `value` (nil for a table: a row's
  /// fields are integers, floats, strings and booleans).
  init?(for value: Value) {
    switch value {
    case .integer: self = .integer
    case .float: self = .real
    case .string: self = .text
    case .boolean: self = .boolean
    default: return nil
    }
  }

  /// A Lua-ish name in a declared schema (`columns = { title = "string", done = "boolean" }`).
  init?(schemaName: String) {
    switch schemaName.lowercased() {
    case "integer": self = .integer
    case "float", "real", "number": self = .real
    case "string", "text": self = .text
    case "boolean": self = .boolean
    case "any": self = .any
    default: return nil
    }
  }

  /// The type a created column is declared with.
  var sqlType: String {
    switch self {
    case .integer: "INTEGER"
    case .real: "REAL"
    case .text: "TEXT"
    case .boolean: "BOOLEAN"
    case .numeric: "NUMERIC"
    case .any: ""
    }
  }

  /// The field a stored value reads as; nil for NULL (the field is absent). A blob is an error:
  /// Lua strings here are text.
  func value(of stored: DatabaseValue, where place: @autoclosure () -> String) throws -> Value? {
    switch stored.storage {
    case .null: return nil
    case .int64(let integer): return self == .boolean ? .boolean(integer != 0) : .integer(integer)
    case .double(let float): return .float(float)
    case .string(let text): return .string(text)
    case .blob: throw SQLiteSharedKeyError("\(place()) holds a blob: a row's fields are integers, floats, text and booleans")
    }
  }

  /// What is stored for `value` in a column of this kind. A value the column would change (a
  /// string in an INTEGER column, which SQLite turns into a number when it looks like one; a
  /// boolean in a TEXT column) is refused rather than stored as something else.
  func stored(_ value: Value, where place: @autoclosure () -> String) throws -> DatabaseValue {
    switch (value, self) {
    case (.null, _): return .null
    case (.integer(let integer), .integer), (.integer(let integer), .numeric), (.integer(let integer), .any):
      return integer.databaseValue
    case (.integer(let integer), .real): return Double(integer).databaseValue
    case (.float(let float), .real), (.float(let float), .integer), (.float(let float), .numeric), (.float(let float), .any):
      return float.databaseValue
    case (.string(let text), .text), (.string(let text), .any): return text.databaseValue
    case (.boolean(let flag), .boolean), (.boolean(let flag), .integer), (.boolean(let flag), .numeric), (.boolean(let flag), .any):
      return (flag ? 1 : 0).databaseValue
    case (.array, _), (.record, _), (.identified, _):
      throw SQLiteSharedKeyError("\(place()) is a table: a row's fields are integers, floats, strings and booleans")
    default:
      throw SQLiteSharedKeyError("\(place()) is \(article(value.kindName)), but the column is \(sqlType.isEmpty ? "untyped" : sqlType)")
    }
  }
}

private func article(_ word: String) -> String {
  (word.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + word
}
