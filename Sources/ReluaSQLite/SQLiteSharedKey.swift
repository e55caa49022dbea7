import Foundation
import GRDB
import Relua

/// `relua.sharedKey("sqlite", { path = "records.db", table = "records" })`: a shared identified
/// list that is the rows of a SQLite table — each row a record whose `id` column is its id and
/// whose other columns are its fields (integers, floats, text; a column declared BOOLEAN holds
/// 0/1 and reads as false/true; NULL is an absent field).
///
/// - Load: `SELECT *` in the table's order (rowid: insertion order, or the id for an INTEGER
///   PRIMARY KEY). A missing file or table gives the holders' default; the file is not made
///   until something is saved.
/// - Save: one transaction that makes the table if it is missing (from `columns`, else from the
///   rows' fields, `id` its primary key), adds a column for a field it lacks, upserts the rows
///   that differ from the rows last loaded or saved, and deletes the rows last loaded or saved
///   that the list no longer has. A row another process added since is left alone, not deleted.
///   The list's order is not stored.
/// - A file that is not a database is a load error and is moved aside (`records.db.corrupt-<ms>`)
///   before the next save; a readable table of the wrong shape is renamed aside
///   (`records_corrupt_<ms>`): never overwritten.
/// - Outside changes: polled every 0.2 s — the file's identity (made, replaced, removed) and
///   `PRAGMA data_version` (another connection's commit, in any process, WAL or not).
///   GRDB's `ValueObservation` sees its own process's writes only.
/// - In a test store the database is in memory, fresh for each test store, whatever `path` says
///   (as `fileStorage` uses in-memory files): tests never touch a real file.
public final class SQLiteSharedKey: ReluaSharedKey, @unchecked Sendable {
  /// The kind scripts name: `relua.sharedKey("sqlite", …)`.
  public static let kind = "sqlite"

  /// The database file (absolute); nil for an in-memory database.
  public let path: String?
  /// The table holding the rows.
  public let table: String
  private let argument: SQLiteKeyArgument
  /// Serializes loads, saves and polls (each runs on whatever thread the registry picked).
  private let lock = NSLock()
  /// The open connection (for a file: to the file that had `openedIdentity`).
  private var queue: DatabaseQueue?
  private var openedIdentity: FileIdentity?
  /// The rows as this key last loaded or saved them, by id: what a save compares with.
  private var known: [Value: Value] = [:]
  /// The file as the poll last saw it, and the connection's data_version then.
  private var polledIdentity: FileIdentity?
  private var polledDataVersion: Int64?
  /// The last load could not read the file at all (not a database): it is moved aside, whole.
  private var fileIsUnreadable = false

  /// A key on the file at `path` (nil: a database in memory, its own).
  init(path: String?, argument: SQLiteKeyArgument) throws {
    self.path = path
    self.table = argument.table
    self.argument = argument
    if path == nil { queue = try DatabaseQueue() }
  }

  /// The key a registry asks for: the argument checked; in a test store a database in memory
  /// (unless the test asked for the real files, `files = "disk"`), else the file at `path`
  /// resolved against the sandbox's roots.
  public static func make(_ request: ReluaSharedKeyRequest) throws -> SQLiteSharedKey {
    let argument = try SQLiteKeyArgument(request.argument)
    if !request.usesRealFiles { return try SQLiteSharedKey(path: nil, argument: argument) }
    guard let path = argument.path else {
      throw SQLiteSharedKeyError("relua.sharedKey(\"sqlite\", …): 'path' (the database file) is required outside tests and in a test with files = \"disk\"")
    }
    return try SQLiteSharedKey(path: try request.resolvePath(path), argument: argument)
  }

  /// `sqlite:/abs/records.db#records`; in memory, this key's own database.
  public var id: String {
    // In memory: each key its own database (the registry makes one key per argument).
    "sqlite:" + (path ?? "memory:\(ObjectIdentifier(self))") + "#" + table
  }

  /// `sqlite("records.db", "records")`, for messages.
  public var description: String {
    "sqlite(\(argument.path.map { "\"\($0)\", " } ?? "")\"\(table)\")"
  }

  /// Saves off the send path, 0.2 s after a burst of changes; a test's database at once.
  public var saveDelay: Duration? { path == nil ? nil : .milliseconds(200) }

  /// How messages name the database: the file as the script wrote it, and the table.
  private var place: String { "\(argument.path ?? "the database in memory"), table \(table)" }

  // MARK: Loading

  /// The table's rows as an identified collection; nil when the file or the table is missing.
  public func load() throws -> Value? {
    try lock.withLock {
      fileIsUnreadable = false
      do {
        guard let queue = try database(creating: false) else {
          known = [:]
          return nil
        }
        let (rows, dataVersion) = try queue.read { db -> ([Value]?, Int64) in
          let version = try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
          return (try readRows(db), version)
        }
        polledDataVersion = dataVersion
        guard let rows else {
          known = [:]
          return nil
        }
        known = Dictionary(rows.map { (IdentifiedValues.id(of: $0), $0) }, uniquingKeysWith: { first, _ in first })
        do {
          return .identified(try IdentifiedValues(rows))
        } catch {
          throw SQLiteSharedKeyError("the table \(table): \(error): the table was kept as it is and will be renamed aside (\(table)_corrupt_<time>) before the next save")
        }
      } catch let error as DatabaseError where Self.isUnreadable(error) {
        fileIsUnreadable = true
        throw SQLiteSharedKeyError(
          "\(argument.path ?? "the database") is not a SQLite database (\(error.message ?? "\(error.resultCode)")): it was kept as it is and will be moved aside before the next save")
      } catch let error as DatabaseError {
        throw SQLiteSharedKeyError("\(place): \(error.message ?? "\(error)")")
      }
    }
  }

  /// The table's rows as records; nil when there is no such table.
  private func readRows(_ db: Database) throws -> [Value]? {
    guard try db.tableExists(table) else { return nil }
    do {
      return try readRows(db, kinds: try columnKinds(db))
    } catch let error as SQLiteSharedKeyError {
      throw SQLiteSharedKeyError("\(error): the table was kept as it is and will be renamed aside (\(table)_corrupt_<time>) before the next save")
    }
  }

  private func readRows(_ db: Database, kinds: [String: SQLiteColumnKind]) throws -> [Value] {
    guard kinds["id"] != nil else {
      throw SQLiteSharedKeyError("the table \(table) has no id column (each row is a record with an id)")
    }
    var rows: [Value] = []
    for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier)") {
      var record = ValueRecord()
      for (column, stored) in row {
        let kind = kinds[column] ?? .any
        if let value = try kind.value(of: stored, where: "\(self.table).\(column) of row \(rows.count + 1)") {
          record[column] = value
        }
      }
      guard record["id"].integerValue != nil || record["id"].stringValue != nil else {
        throw SQLiteSharedKeyError("row \(rows.count + 1) of the table \(self.table) has no id (an integer or text)")
      }
      rows.append(.record(record))
    }
    return rows
  }

  private func columnKinds(_ db: Database) throws -> [String: SQLiteColumnKind] {
    var kinds: [String: SQLiteColumnKind] = [:]
    for column in try db.columns(in: table) { kinds[column.name] = SQLiteColumnKind(declaredType: column.type) }
    return kinds
  }

  // MARK: Saving

  /// Writes the list's changes since the last load or save, in one transaction.
  public func save(_ value: Value) throws {
    let rows = try Self.rows(of: value, table: table)
    try lock.withLock {
      do {
        guard let queue = try database(creating: true) else { return }
        try queue.write { db in try write(rows, into: db) }
      } catch let error as DatabaseError {
        throw SQLiteSharedKeyError("\(place): \(error.message ?? "\(error)")")
      }
      known = Dictionary(rows.map { ($0.id, $0.record) }, uniquingKeysWith: { _, last in last })
    }
  }

  /// The list's records with their ids (an integer or a string each).
  private static func rows(of value: Value, table: String) throws -> [(id: Value, record: Value)] {
    let elements: [Value]
    switch value {
    case .identified(let collection): elements = collection.elements
    case .array(let array): elements = array
    case .record(let record) where record.isEmpty: elements = []
    default: throw SQLiteSharedKeyError("the table \(table) holds a list of records with ids, not \(value.kindName)")
    }
    return try elements.enumerated().map { position, element in
      guard case .record = element else {
        throw SQLiteSharedKeyError("\(table): element \(position + 1) is \(element.kindName), not a record")
      }
      let id = element[key: "id"]
      guard id.integerValue != nil || id.stringValue != nil else {
        throw SQLiteSharedKeyError("\(table): element \(position + 1) has no id (an integer or a string)")
      }
      return (id, element)
    }
  }

  /// One transaction (GRDB's `write`): the table made or widened, changed rows upserted, gone
  /// rows deleted.
  private func write(_ rows: [(id: Value, record: Value)], into db: Database) throws {
    let quotedTable = table.quotedDatabaseIdentifier
    if try !db.tableExists(table) {
      guard let first = rows.first else { return }  // (nothing to store, nothing to make a table of)
      let idType = first.id.integerValue != nil ? "INTEGER" : "TEXT"
      let declared = argument.columns.map { "\($0.name.quotedDatabaseIdentifier) \($0.kind.sqlType)" }
      try db.execute(sql: "CREATE TABLE \(quotedTable) (\((["id \(idType) PRIMARY KEY NOT NULL"] + declared).joined(separator: ", ")))")
    }
    var kinds = try columnKinds(db)
    guard kinds["id"] != nil else {
      throw SQLiteSharedKeyError("the table \(table) has no id column (each row is a record with an id)")
    }
    for (_, record) in rows {
      for field in record.recordValue?.fields ?? [] where kinds[field.key] == nil {
        guard let kind = SQLiteColumnKind(for: field.value) else {
          throw SQLiteSharedKeyError("\(table)[id=\(record[key: "id"])].\(field.key) is a table: a row's fields are integers, floats, strings and booleans")
        }
        try db.execute(sql: "ALTER TABLE \(quotedTable) ADD COLUMN \(field.key.quotedDatabaseIdentifier) \(kind.sqlType)")
        kinds[field.key] = kind
      }
    }
    let columns = kinds.keys.sorted()
    let upsert = """
      INSERT INTO \(quotedTable) (\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))
      VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))
      ON CONFLICT(id) DO UPDATE SET \(columns.filter { $0 != "id" }.map { "\($0.quotedDatabaseIdentifier) = excluded.\($0.quotedDatabaseIdentifier)" }.joined(separator: ", "))
      """
    let statement = columns.count > 1 ? try db.makeStatement(sql: upsert)
      : try db.makeStatement(sql: "INSERT INTO \(quotedTable) (id) VALUES (?) ON CONFLICT(id) DO NOTHING")
    var ids = Set<Value>()
    for (id, record) in rows {
      ids.insert(id)
      if let before = known[id], before == record { continue }
      let values = try columns.map { column in
        try kinds[column]!.stored(record[key: column], where: "\(table)[id=\(id)].\(column)")
      }
      try statement.execute(arguments: StatementArguments(values))
    }
    let delete = try db.makeStatement(sql: "DELETE FROM \(quotedTable) WHERE id = ?")
    for id in known.keys where !ids.contains(id) {
      try delete.execute(arguments: [id.integerValue.map { $0.databaseValue } ?? id.stringValue?.databaseValue])
    }
  }

  // MARK: Keeping what could not be read

  /// Moves a file that is not a database aside, or renames a table relua could not read.
  public func keepStoredAside() throws {
    try lock.withLock {
      let stamp = Int(Date().timeIntervalSince1970 * 1000)
      if fileIsUnreadable, let path {
        try queue?.close()
        queue = nil
        openedIdentity = nil
        // The journal files belong to the file: they go with it.
        for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
          try FileManager.default.moveItem(atPath: path + suffix, toPath: "\(path).corrupt-\(stamp)\(suffix)")
        }
        fileIsUnreadable = false
      } else if let queue = try database(creating: false) {
        try queue.write { db in
          guard try db.tableExists(table) else { return }
          try db.execute(sql: "ALTER TABLE \(table.quotedDatabaseIdentifier) RENAME TO \("\(table)_corrupt_\(stamp)".quotedDatabaseIdentifier)")
        }
      }
      known = [:]
    }
  }

  // MARK: Outside changes

  /// Polls the file's identity and `PRAGMA data_version` every 0.2 s; nil in memory.
  public func subscribe(_ didChange: @escaping @Sendable () -> Void) -> ReluaSharedSubscription? {
    guard let path else { return nil }
    lock.withLock { polledIdentity = FileIdentity(path) }
    let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
    timer.schedule(deadline: .now() + .milliseconds(200), repeating: .milliseconds(200))
    timer.setEventHandler { [weak self] in
      if self?.changedOutside() == true { didChange() }
    }
    timer.resume()
    nonisolated(unsafe) let source = timer  // (cancel is thread-safe)
    return ReluaSharedSubscription { source.cancel() }
  }

  /// Whether another connection changed the database since the last load or poll: the file
  /// made, replaced or removed, or a commit that moved `PRAGMA data_version`.
  private func changedOutside() -> Bool {
    guard let path else { return false }
    return lock.withLock {
      let identity = FileIdentity(path)
      if identity != polledIdentity {
        polledIdentity = identity
        return true
      }
      guard let queue, identity == openedIdentity, !fileIsUnreadable,
        let version = try? queue.read({ db in try Int64.fetchOne(db, sql: "PRAGMA data_version") })
      else { return false }
      defer { polledDataVersion = version }
      return polledDataVersion.map { $0 != version } ?? false
    }
  }

  // MARK: The connection

  /// The connection to the database: the file's, opened again when the file was replaced; nil
  /// when the file does not exist and `creating` is false (loading does not make files).
  private func database(creating: Bool) throws -> DatabaseQueue? {
    guard let path else { return queue }
    let identity = FileIdentity(path)
    if let queue, identity != nil, identity == openedIdentity { return queue }
    try queue?.close()
    queue = nil
    openedIdentity = nil
    guard identity != nil || creating else { return nil }
    var configuration = Configuration()
    // Another process writing the file: wait for its lock a while rather than fail at once.
    configuration.busyMode = .timeout(2)
    configuration.label = description
    let opened: DatabaseQueue
    do {
      opened = try DatabaseQueue(path: path, configuration: configuration)
    } catch let error as DatabaseError where Self.isUnreadable(error) {
      fileIsUnreadable = true
      throw SQLiteSharedKeyError(
        "\(argument.path ?? path) is not a SQLite database (\(error.message ?? "\(error.resultCode)")): it was kept as it is and will be moved aside before the next save")
    }
    queue = opened
    openedIdentity = FileIdentity(path)
    if polledIdentity == nil { polledIdentity = openedIdentity }
    return opened
  }

  private static func isUnreadable(_ error: DatabaseError) -> Bool {
    error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
  }
}

/// Which file a path names (device and inode): tells a file replaced by a rename from one
/// written in place.
struct FileIdentity: Equatable, Sendable {
  let device: UInt64
  let inode: UInt64

  /// The file at `path` now; nil when there is none.
  init?(_ path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
  }
}
