import Relua

/// What a script says of a `sqlite` key: `{ path = "records.db", table = "records",
/// columns = { title = "string", done = "boolean" } }` (`columns`, optional, declares the table
/// made when there is none; without it the first saved rows' fields make it).
struct SQLiteKeyArgument: Sendable {
  /// The database file as the script wrote it (nil: none; only a test store may leave it out).
  var path: String?
  var table: String
  /// Declared columns besides `id`, in name order.
  var columns: [(name: String, kind: SQLiteColumnKind)]

  init(_ argument: Value) throws {
    guard case .record(let record) = argument else {
      throw SQLiteSharedKeyError("relua.sharedKey(\"sqlite\", { path = \"records.db\", table = \"records\" }) expects a table, got \(argument.kindName)")
    }
    for key in record.keys where !["path", "table", "columns"].contains(key) {
      throw SQLiteSharedKeyError("relua.sharedKey(\"sqlite\", …): unknown option '\(key)' (known: path, table, columns)")
    }
    switch record["path"] {
    case .null: path = nil
    case .string(let text) where !text.isEmpty: path = text
    default: throw SQLiteSharedKeyError("relua.sharedKey(\"sqlite\", …): 'path' must be a file name")
    }
    guard case .string(let table) = record["table"], Self.isIdentifier(table) else {
      throw SQLiteSharedKeyError("relua.sharedKey(\"sqlite\", …): 'table' must be a table name (letters, digits and _)")
    }
    self.table = table
    columns = []
    switch record["columns"] {
    case .null: break
    case .record(let declared):
      for field in declared.fields {
        guard Self.isIdentifier(field.key), field.key != "id" else {
          throw SQLiteSharedKeyError("relua.sharedKey(\"sqlite\", …): columns.\(field.key): a column name is letters, digits and _, and not id (always there)")
        }
        guard let name = field.value.stringValue, let kind = SQLiteColumnKind(schemaName: name) else {
          throw SQLiteSharedKeyError("relua.sharedKey(\"sqlite\", …): columns.\(field.key) must be \"integer\", \"float\", \"string\", \"boolean\" or \"any\"")
        }
        columns.append((field.key, kind))
      }
    default:
      throw SQLiteSharedKeyError("relua.sharedKey(\"sqlite\", …): 'columns' must be a table { name = \"string\", … }")
    }
  }

  /// Letters, digits and `_`, not starting with a digit: a name quoted or not, never SQL.
  static func isIdentifier(_ name: String) -> Bool {
    guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
    return name.utf8.allSatisfy { byte in
      byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
  }
}
