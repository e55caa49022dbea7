import CLuaShim
import Foundation
import XCTest

@testable import Lua

/// `LuaOptions.sharesCompiledChunks`: a text chunk compiled once is loaded from its bytecode by
/// later states, and behaves exactly as if parsed again.
final class SharedChunkTests: XCTestCase {
  private func sharing(trusted: Bool = false, roots: [String] = []) throws -> LuaState {
    try LuaState(options: LuaOptions(trusted: trusted, scriptRoots: roots, sharesCompiledChunks: true))
  }

  /// Text of its own per test run, so no earlier test has compiled it (its first line a comment).
  private func uniqueSource(_ body: String) -> String { "-- \(UUID().uuidString)\n" + body }

  func testASecondStateLoadsTheCompiledChunkAndItBehavesTheSame() throws {
    let source = uniqueSource("local n = ...\nreturn n * 2, debug.traceback('here', 1):match('chunky:%d+')")
    let before = relua_sharedchunkcount()
    let first = try sharing()
    XCTAssertEqual(try first.call(first.load(source, name: "chunky"), 21), [42, "chunky:3"])
    XCTAssertEqual(relua_sharedchunkcount(), before + 1)
    let second = try sharing()
    XCTAssertEqual(try second.call(second.load(source, name: "chunky"), 4), [8, "chunky:3"])
    XCTAssertEqual(relua_sharedchunkcount(), before + 1, "the second load is the first one's bytecode")
  }

  func testErrorsOfALoadedChunkNameItsLinesAsParsedOnes() throws {
    let source = uniqueSource("local x = 1\nerror('boom')")
    for _ in 0..<2 {
      let state = try sharing()
      XCTAssertThrowsError(try state.call(state.load(source, name: "lines"))) { error in
        XCTAssert("\(error)".contains("lines:3: boom"), "\(error)")
      }
    }
  }

  func testTheSameNameWithOtherTextAndOtherNamesAreOtherChunks() throws {
    let a = uniqueSource("return 'a'"), b = uniqueSource("return 'b'")
    let before = relua_sharedchunkcount()
    for _ in 0..<2 {
      let state = try sharing()
      XCTAssertEqual(try state.call(state.load(a, name: "same")), ["a"])
      XCTAssertEqual(try state.call(state.load(b, name: "same")), ["b"])
      XCTAssertEqual(try state.call(state.load(a, name: "other")), ["a"])
    }
    XCTAssertEqual(relua_sharedchunkcount(), before + 3)
  }

  func testAChunkThatDoesNotCompileIsNotKept() throws {
    let source = uniqueSource("return +")
    let before = relua_sharedchunkcount()
    for _ in 0..<2 {
      let state = try sharing()
      XCTAssertThrowsError(try state.load(source, name: "broken")) { error in
        XCTAssert("\(error)".contains("broken:2:"), "\(error)")
      }
    }
    XCTAssertEqual(relua_sharedchunkcount(), before)
  }

  func testAStateThatDoesNotShareNeitherKeepsNorReadsChunks() throws {
    let source = uniqueSource("return 1")
    let before = relua_sharedchunkcount()
    let state = try LuaState()
    XCTAssertEqual(try state.call(state.load(source, name: "private")), [1])
    XCTAssertEqual(relua_sharedchunkcount(), before)
  }

  func testScriptsStillCannotLoadBytecode() throws {
    let state = try sharing()
    // string.dump is not in the sandbox: a binary chunk made by a trusted state is refused.
    let trusted = try LuaState(options: LuaOptions(trusted: true))
    let dumped = try trusted.execute("return string.dump(function() return 1 end)")[0]
    try state.setGlobal("code", dumped)
    let result = try state.execute("return load(code)")
    XCTAssertEqual(result.first, .nil)
    XCTAssert(result.count > 1 && "\(result[1])".contains("binary"), "\(result)")
  }

  func testRequireOfAModuleInTheRootsSharesItsChunkWithLineNumbers() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("shared-chunks-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    // A shebang line is skipped and still counts as line 1.
    try "#!/usr/bin/env lua\nreturn { line = function() return debug.traceback('', 1):match('mod.lua:(%d+)') end }"
      .write(to: root.appendingPathComponent("mod.lua"), atomically: true, encoding: .utf8)
    let before = relua_sharedchunkcount()
    for _ in 0..<2 {
      let state = try sharing(roots: [root.path])
      XCTAssertEqual(try state.execute("return require('mod').line()"), ["2"])
    }
    XCTAssertEqual(relua_sharedchunkcount(), before + 2, "the module and the chunk that requires it")
  }
}
