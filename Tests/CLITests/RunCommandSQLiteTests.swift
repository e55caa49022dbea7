import XCTest

/// `relua run` with the sqlite shared key the CLI registers: a script's changes are in the
/// database when it ends (the state's close saves what was still waiting), and the next run
/// loads them.
final class RunCommandSQLiteTests: XCTestCase {
  func testAScriptsRowsOutliveItsRun() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("records.lua", """
      local relua = require "relua"
      local Records = relua.sharedKey("sqlite", { path = "records.db", table = "records" })
      local List = relua.feature "List" {
        state = { records = relua.identified {} },
        shared = { records = Records },
        actions = { add = "string", toggle = "integer" },
        reduce = relua.on {
          add = function(s, title) s.records[#s.records + 1] = { id = #s.records + 1, title = title, done = false } end,
          toggle = function(s, position) s.records[position].done = not s.records[position].done end,
        },
      }
      local store = relua.Store(List)
      local seen = {}
      for _, record in ipairs(store:state("records")) do seen[#seen + 1] = record.title .. (record.done and "+" or "-") end
      print(table.concat(seen, " "))
      store:send("add", ... or "milk")
      store:send("toggle", 1)
      """)
    let first = try ReluaProcess.run(["run", file, "milk"], currentDirectory: dir.url)
    XCTAssertEqual(first.exitCode, 0, first.stderr)
    XCTAssertEqual(first.stdout, "\n")
    let second = try ReluaProcess.run(["run", file, "eggs"], currentDirectory: dir.url)
    XCTAssertEqual(second.exitCode, 0, second.stderr)
    XCTAssertEqual(second.stdout, "milk+\n")
    let third = try ReluaProcess.run(["run", file], currentDirectory: dir.url)
    XCTAssertEqual(third.stdout, "milk- eggs-\n", third.stderr)
  }
}
