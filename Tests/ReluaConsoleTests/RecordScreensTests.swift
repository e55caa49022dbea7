import Foundation
import Lua
import XCTest

@testable import Relua
@testable import ReluaConsole
@testable import ReluaTesting

/// `:record FILE --screens`: the recorded test asserts the screen when it starts and after each
/// step (`assert.screen(store)`); its first run writes the snapshots, the next ones compare.
@MainActor
final class RecordScreensTests: XCTestCase {
  func testARecordingWithScreensAssertsThemAndReplays() async throws {
    let scripts = try RecordingPropertyTests.copyOfScripts()
    defer { try? FileManager.default.removeItem(at: scripts.deletingLastPathComponent()) }
    let lua = try LuaState(options: LuaOptions(scriptRoots: [scripts.path]))
    defer { lua.close() }
    let printed = RecordingPropertyTests.Printed()
    let output = ConsoleOutput(useColor: false, write: { printed.add($0) }, writeError: { printed.add($0) })
    let session = try ConsoleSession(lua: lua, reader: LineReader(interactive: false), output: output)
    let file = scripts.appendingPathComponent("Features/CaseStudies/Counter.lua").path
    guard await session.load(file: file), let console = session.feature else { return XCTFail(printed.text) }
    defer { console.stop() }
    let recorded = scripts.appendingPathComponent("Tests/counter_test.lua").path
    await session.handle(":record \(recorded) --screens")
    await session.handle(":send increment")
    await session.handle(":send increment")
    await session.handle(":stop")
    let test = try String(contentsOfFile: recorded, encoding: .utf8)
    XCTAssertEqual(test.components(separatedBy: "assert.screen(store)").count - 1, 3, test)

    let first = await LuaTestRunner().run(paths: [recorded])
    XCTAssertEqual(first.failed, 0, "\(first.results.compactMap(\.failure))\n\(test)")
    // Three screens, each its text and its tree (the case study's view is a relua.ui tree).
    XCTAssertEqual(first.results.first?.notes.count, 6)
    let folder = scripts.appendingPathComponent("Tests/__snapshots__/counter_test.lua").path
    let name = "recorded session: increment, increment"
    XCTAssertEqual(try String(contentsOfFile: folder + "/\(name).3.txt", encoding: .utf8), "── Counter ──\n2   [- :decrement] [+ :increment]\n")
    // What the REPL showed after the last send.
    XCTAssert(printed.text.hasSuffix("── Counter ──\n2   [- :decrement] [+ :increment]") || printed.text.contains("── Counter ──\n2   [- :decrement] [+ :increment]\n"), printed.text)

    let second = await LuaTestRunner().run(paths: [recorded])
    XCTAssertEqual(second.passed, 1)
    XCTAssertEqual(second.results.first?.notes, [])
  }
}
