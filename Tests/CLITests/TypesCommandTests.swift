import Foundation
import XCTest

/// `relua types`: what it writes for the shipped features (the golden files), and that a script it
/// cannot type stops it at the script's `file:line` with nothing written. (What the files say:
/// ReluaTests' `LuaTypesGeneratorTests` and `LuaTypesGoldenTests`.)
final class TypesCommandTests: XCTestCase {
  private static let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  private static let golden = repositoryRoot.appendingPathComponent("Tests/ReluaTests/Tooling/Golden")

  private static func luaFiles(in directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".lua") }.sorted()
  }

  func testItWritesTheGoldenFilesForTheShippedFeatures() throws {
    let out = try ScriptDirectory()
    let result = try ReluaProcess.run(["types", "-o", out.url.path, "Scripts/Features"], currentDirectory: Self.repositoryRoot)
    XCTAssertEqual(result.exitCode, 0, result.stderr)
    let names = try Self.luaFiles(in: out.url)
    XCTAssertEqual(names, try Self.luaFiles(in: Self.golden))
    XCTAssertTrue(result.stdout.hasPrefix("relua types: wrote \(names.count) file(s) to \(out.url.path) (relua's API, "), result.stdout)
    for name in names {
      let written = try Data(contentsOf: out.url.appendingPathComponent(name))
      XCTAssertTrue(
        written == (try Data(contentsOf: Self.golden.appendingPathComponent(name))),
        "\(name): relua types wrote other than its golden file (LuaTypesGoldenTests says where)")
    }
  }

  func testAScriptThatRaisesStopsItAtItsLineAndNothingIsWritten() throws {
    let dir = try ScriptDirectory()
    try dir.write("Good.lua", #"return require("relua").feature "Good" { state = { n = 0 }, actions = { up = {} } }"#)
    try dir.write("Bad.lua", """
      local relua = require "relua"
      error("no state for you")
      return relua.feature "Bad" {}
      """)
    let result = try ReluaProcess.run(["types", "-o", "types", "Good.lua", "Bad.lua"], currentDirectory: dir.url)
    XCTAssertEqual(result.exitCode, 1)
    XCTAssertTrue(result.stderr.hasPrefix("relua: Bad.lua:2: no state for you\n"), result.stderr)
    XCTAssertEqual(result.stdout, "")
    XCTAssertFalse(FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("types").path), "nothing is written")
  }

  func testAScriptReturningNoFeatureStopsItAndLeavesEarlierFilesAsTheyWere() throws {
    let dir = try ScriptDirectory()
    try dir.write("Good.lua", #"return require("relua").feature "Good" { state = { n = 0 }, actions = { up = {} } }"#)
    try dir.write("helpers.lua", "local M = {}\nfunction M.twice(x) return 2 * x end\nreturn M\n")
    let first = try ReluaProcess.run(["types", "Good.lua"], currentDirectory: dir.url)
    XCTAssertEqual(first.exitCode, 0, first.stderr)
    XCTAssertEqual(first.stdout, "relua types: wrote 2 file(s) to types (relua's API, 1 feature(s) from 1 script(s))\n")
    let types = dir.url.appendingPathComponent("types")
    XCTAssertEqual(try Self.luaFiles(in: types), ["Good.lua", "relua.lua"])
    let before = try Data(contentsOf: types.appendingPathComponent("relua.lua"))

    let result = try ReluaProcess.run(["types", "Good.lua", "helpers.lua"], currentDirectory: dir.url)
    XCTAssertEqual(result.exitCode, 1)
    XCTAssertEqual(
      result.stderr,
      "relua: helpers.lua:3: the script returned a table, not a feature: a feature script ends with "
        + "`return relua.feature \"Name\" { … }` (or returns the feature it declared)\n")
    XCTAssertEqual(try Self.luaFiles(in: types), ["Good.lua", "relua.lua"])
    XCTAssertEqual(try Data(contentsOf: types.appendingPathComponent("relua.lua")), before)
  }

  func testItReplacesOnlyFilesItWroteAndRemovesThoseItNoLongerWrites() throws {
    let dir = try ScriptDirectory()
    try dir.write("Good.lua", #"return require("relua").feature "Good" { state = { n = 0 }, actions = { up = {} } }"#)
    try dir.write("Other.lua", #"return require("relua").feature "Other" { state = { s = "" } }"#)
    XCTAssertEqual(try ReluaProcess.run(["types", "-o", "out", "Good.lua", "Other.lua"], currentDirectory: dir.url).exitCode, 0)
    let out = dir.url.appendingPathComponent("out")
    XCTAssertEqual(try Self.luaFiles(in: out), ["Good.lua", "Other.lua", "relua.lua"])
    // Other.lua is not given again: its generated file goes.
    XCTAssertEqual(try ReluaProcess.run(["types", "-o", "out", "Good.lua"], currentDirectory: dir.url).exitCode, 0)
    XCTAssertEqual(try Self.luaFiles(in: out), ["Good.lua", "relua.lua"])
    // A file of the same name that relua types did not write is never replaced.
    try dir.write("mine/relua.lua", "-- my own notes\n")
    let refused = try ReluaProcess.run(["types", "-o", "mine", "Good.lua"], currentDirectory: dir.url)
    XCTAssertEqual(refused.exitCode, 1)
    XCTAssertEqual(
      refused.stderr,
      "relua types: mine/relua.lua exists and relua types did not write it; it is left as it is and nothing was written\n")
    XCTAssertEqual(try Self.luaFiles(in: dir.url.appendingPathComponent("mine")), ["relua.lua"])
    XCTAssertEqual(try String(contentsOf: dir.url.appendingPathComponent("mine/relua.lua"), encoding: .utf8), "-- my own notes\n")
  }
}
