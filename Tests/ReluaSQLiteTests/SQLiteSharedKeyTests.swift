import Foundation
import GRDB
import Relua
import ReluaSQLite
@testable import ReluaTesting
import XCTest

/// The `sqlite` shared key against real database files: a live store's sends read back with a
/// connection of GRDB's own, a change another connection (and another process) commits reaching
/// the store, and a file that is not a database kept, never overwritten.
@MainActor
final class SQLiteSharedKeyTests: XCTestCase {
  static let feature = """
    local relua = require "relua"
    local Records = relua.sharedKey("sqlite", { path = "records.db", table = "records" })
    return relua.feature "Records" {
      state = { records = relua.identified {}, loadError = "", saveError = "" },
      shared = { records = Records },
      actions = { add = "string", toggle = "integer", remove = "integer", score = "number", check = {} },
      reduce = relua.on {
        add = function(s, title) s.records[#s.records + 1] = { id = #s.records + 1, title = title, done = false } end,
        toggle = function(s, position) s.records[position].done = not s.records[position].done end,
        remove = function(s, position) table.remove(s.records, position) end,
        score = function(s, score) s.records[1].score = score end,
        check = function(s)
          s.loadError = Records:loadError() or ""
          s.saveError = Records:saveError() or ""
        end,
      },
    }
    """

  private var directory: URL!
  private var databasePath: String { directory.appendingPathComponent("records.db").path }

  override func setUp() async throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("relua-sqlite-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDown() async throws {
    // (a save still waiting, 0.2 s after the last change, is let through before the files go)
    try await Task.sleep(for: .milliseconds(400))
    try? FileManager.default.removeItem(at: directory)
  }

  private func makeStore() throws -> ReluaStore {
    let relua = try ReluaRuntime(scriptRoots: [directory.path])
    relua.registerSQLiteSharedKey()
    runtimes.append(relua)
    return try relua.makeStore(try relua.loadFeature(source: Self.feature, name: "Records.lua"))
  }
  private var runtimes: [ReluaRuntime] = []

  /// A connection of the test's own, waiting for the store's while it writes.
  private func connection() throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.busyMode = .timeout(5)
    return try DatabaseQueue(path: databasePath, configuration: configuration)
  }

  /// The table's rows, read by a connection of the test's own.
  private func rowsInFile() throws -> [[String: String]] {
    let queue = try connection()
    return try queue.read { db in
      guard try db.tableExists("records") else { return [] }
      return try Row.fetchAll(db, sql: "SELECT * FROM records ORDER BY id").map { row in
        Dictionary(uniqueKeysWithValues: row.map { column, value in (column, "\(value)") })
      }
    }
  }

  /// Waits (up to 5 s) until `condition` holds, letting the main actor run the store's work.
  private func eventually(_ what: String, _ condition: () throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(5)
    while try !condition() {
      guard Date() < deadline else { return XCTFail("timed out waiting until \(what)") }
      try await Task.sleep(for: .milliseconds(50))
    }
  }

  private func titles(_ store: ReluaStore) -> [String] {
    store.state[key: "records"].identifiedValue?.elements.compactMap { $0[key: "title"].stringValue } ?? []
  }

  func testSendsAreWrittenToTheTableInOneSaveAndReadBackByTheNextRun() async throws {
    let store = try makeStore()
    XCTAssertFalse(FileManager.default.fileExists(atPath: databasePath), "loading makes no file")
    try store.send("add", "milk")
    try store.send("add", "eggs")
    try store.send("add", "tea")
    try store.send("toggle", 1)
    try store.send("remove", 2)
    try store.send("score", .float(2.5))
    let expected: [[String: String]] = [
      ["id": "1", "title": "\"milk\"", "done": "1", "score": "2.5"],
      ["id": "3", "title": "\"tea\"", "done": "0", "score": "NULL"],
    ]
    try await eventually("the rows are saved") { try rowsInFile() == expected }
    XCTAssertEqual(try rowsInFile(), expected)
    let columns = try await connection().read { db in try db.columns(in: "records").map { "\($0.name) \($0.type)" } }
    // One save for the burst (debounced): the table made from its rows' fields, in name order.
    XCTAssertEqual(columns, ["id INTEGER", "done BOOLEAN", "score REAL", "title TEXT"])

    // Another run of the program (a runtime of its own) reads the rows back: booleans as booleans.
    let again = try makeStore()
    let records = again.state[key: "records"].identifiedValue?.elements ?? []
    XCTAssertEqual(records.count, 2)
    XCTAssertEqual(records.first?[key: "done"], .boolean(true))
    XCTAssertEqual(records.first?[key: "score"], .float(2.5))
    XCTAssertEqual(records.last?[key: "done"], .boolean(false))
    XCTAssertEqual(records.last?[key: "score"], .null)
  }

  func testAChangeMadeJustBeforeTheStateClosesIsSaved() throws {
    let relua = try ReluaRuntime(scriptRoots: [directory.path])
    relua.registerSQLiteSharedKey()
    let store = try relua.makeStore(try relua.loadFeature(source: Self.feature, name: "Records.lua"))
    try store.send("add", "milk")
    relua.lua.close()  // (what `relua run` does as its script ends, well within the save's 0.2 s)
    XCTAssertEqual(try rowsInFile().map { $0["title"]! }, ["\"milk\""])
  }

  func testAChangeAnotherConnectionCommitsReachesTheStoreAndIsNotUndoneByTheNextSave() async throws {
    let store = try makeStore()
    try store.send("add", "milk")
    try store.send("add", "eggs")
    try await eventually("the rows are saved") { try rowsInFile().count == 2 }

    let other = try connection()
    try await other.write { db in
      try db.execute(sql: "UPDATE records SET title = 'oat milk' WHERE id = 1")
      try db.execute(sql: "INSERT INTO records (id, title, done) VALUES (7, 'bread', 0)")
    }
    try await eventually("the store sees the outside change") { titles(store) == ["oat milk", "eggs", "bread"] }

    // A row added outside after the store's last load is left alone by its saves.
    try await other.write { db in try db.execute(sql: "INSERT INTO records (id, title, done) VALUES (8, 'jam', 0)") }
    try store.send("remove", 2)
    try await eventually("the removal is saved") { try rowsInFile().map { $0["id"]! }.contains("2") == false }
    try await eventually("the store sees the row added outside") { titles(store).contains("jam") }
    XCTAssertEqual(try rowsInFile().map { $0["id"]! }, ["1", "7", "8"])
  }

  func testAChangeAnotherProcessCommitsReachesTheStore() async throws {
    let python = "/usr/bin/python3"
    guard FileManager.default.isExecutableFile(atPath: python) else { throw XCTSkip("no \(python) to write from another process") }
    let store = try makeStore()
    try store.send("add", "milk")
    try await eventually("the row is saved") { try rowsInFile().count == 1 }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [
      "-c",
      """
      import sqlite3, sys
      db = sqlite3.connect(sys.argv[1])
      db.execute("UPDATE records SET title = 'written by python', done = 1 WHERE id = 1")
      db.commit()
      """,
      databasePath,
    ]
    try process.run()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0)
    try await eventually("the store sees the other process's commit") { titles(store) == ["written by python"] }
    XCTAssertEqual(store.state[key: "records"].identifiedValue?.elements.first?[key: "done"], .boolean(true))
  }

  func testAFileThatIsNotADatabaseIsALoadErrorAndIsKeptAsideBeforeTheNextSave() async throws {
    let garbage = Data("these are not the rows you are looking for\n".utf8)
    try garbage.write(to: URL(fileURLWithPath: databasePath))
    let store = try makeStore()
    try store.send("check")
    XCTAssertTrue(store.state[key: "loadError"].stringValue?.contains("records.db is not a SQLite database") ?? false, "\(store.state[key: "loadError"])")
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: databasePath)), garbage, "the load left the file as it was")

    try store.send("add", "milk")
    try await eventually("the new database is saved") { (try? rowsInFile().count) == 1 }
    let aside = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("records.db.corrupt-") }
    XCTAssertEqual(aside.count, 1, "\(aside)")
    XCTAssertEqual(try Data(contentsOf: directory.appendingPathComponent(aside[0])), garbage)
  }

  func testATableOfAnotherShapeIsRenamedAsideNotOverwritten() async throws {
    try await connection().write { db in
      try db.execute(sql: "CREATE TABLE records (name TEXT); INSERT INTO records VALUES ('kept')")
    }
    let store = try makeStore()
    try store.send("check")
    XCTAssertTrue(store.state[key: "loadError"].stringValue?.contains("has no id column") ?? false, "\(store.state[key: "loadError"])")
    try store.send("add", "milk")
    try await eventually("the new table is saved") { (try? rowsInFile().count) == 1 }
    let kept = try await connection().read { db in
      let aside = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'records_corrupt_%'")
      return try aside.flatMap { try String.fetchAll(db, sql: "SELECT name FROM \($0.quotedDatabaseIdentifier)") }
    }
    XCTAssertEqual(kept, ["kept"])
  }

  func testAValueAColumnWouldChangeIsASaveErrorAndTheTransactionIsRolledBack() async throws {
    try await connection().write { db in
      try db.execute(sql: "CREATE TABLE records (id INTEGER PRIMARY KEY, title TEXT, done BOOLEAN)")
    }
    let store = try makeStore()
    let key = ReluaSharedKeyName.custom("sqlite", ["path": "records.db", "table": "records"])
    try runtimes[0].setShared(key, to: [["id": 1, "title": "milk", "done": false], ["id": 2, "title": 42, "done": true]])
    try await eventually("the save fails") {
      try store.send("check")
      return store.state[key: "saveError"].stringValue?.isEmpty == false
    }
    XCTAssertEqual(store.state[key: "saveError"], "records[id=2].title is an integer, but the column is TEXT")
    XCTAssertEqual(try rowsInFile(), [], "nothing of a failed save is written")
  }
}

/// A test store given `files = "disk"` uses the real database file (the sandbox's roots still
/// hold); without it, a database in memory of its own.
@MainActor
final class SQLiteSharedKeyOnDiskInTestsTests: XCTestCase {
  func testATestStoreGivenTheRealFilesWritesTheDatabaseFileAndStaysInsideTheSandbox() async throws {
    ReluaHost.registerSQLiteSharedKeyForEveryState()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relua-sqlite-disk-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try #"""
      local relua = require "relua"
      local function records(path)
        local Records = relua.sharedKey("sqlite", { path = path, table = "records" })
        return Records, relua.feature "Records" {
          state = { records = relua.identified {} },
          shared = { records = Records },
          actions = { add = "string" },
          reduce = relua.on { add = function(s, title) s.records[#s.records + 1] = { id = #s.records + 1, title = title } end },
        }
      end

      test("files = \"disk\": the rows go to the real file (saved off the send path, as live)", function()
        local Records, List = records("disk.db")
        local store = relua.TestStore(List, { files = "disk" })
        store:send("add", "milk", function(s) s.records[1] = { id = 1, title = "milk" } end)
      end)

      test("without it, each store has a database in memory", function()
        local Records, List = records("memory.db")
        local store = relua.TestStore(List)
        store:send("add", "milk", function(s) s.records[1] = { id = 1, title = "milk" } end)
        expect(#relua.TestStore(List):state("records")).to_be(0)
      end)

      test("a real file outside the sandbox's roots is refused", function()
        local Records, List = records("../outside.db")
        expect(function() relua.TestStore(List, { files = "disk" }) end).to_error("outside the directories this script may use")
      end)
      """#.write(to: directory.appendingPathComponent("disk_test.lua"), atomically: true, encoding: .utf8)
    let previous = FileManager.default.currentDirectoryPath
    _ = FileManager.default.changeCurrentDirectoryPath(directory.path)
    let summary = await LuaTestRunner(configuration: LuaTestConfiguration()).run(paths: ["."])
    _ = FileManager.default.changeCurrentDirectoryPath(previous)
    let failures = summary.results.compactMap { result in result.failure.map { "\(result.name): \($0.message)" } }
    XCTAssertEqual(failures, [], failures.joined(separator: "\n\n"))
    XCTAssertEqual(summary.passed, 3, summary.closingLine)
    // The save runs 0.2 s after the send, on a background queue.
    let database = directory.appendingPathComponent("disk.db").path
    let deadline = Date().addingTimeInterval(5)
    while !FileManager.default.fileExists(atPath: database), Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
    try await Task.sleep(for: .milliseconds(300))
    let titles = try await DatabaseQueue(path: database).read { db in try String.fetchAll(db, sql: "SELECT title FROM records") }
    XCTAssertEqual(titles, ["milk"], "the real file holds the test's row")
    XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("memory.db").path), "an in-memory test makes no file")
    XCTAssertFalse(FileManager.default.fileExists(atPath: directory.deletingLastPathComponent().appendingPathComponent("outside.db").path))
  }
}
