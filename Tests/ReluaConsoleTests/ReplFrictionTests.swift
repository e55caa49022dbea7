import Foundation
import Lua
import XCTest

@testable import Relua
@testable import ReluaConsole

/// Frictions met playing the Records app in the REPL, checked without a terminal: a screen's
/// action named like a REPL command, an action of a screen beneath the one on top, an element id
/// that is not there, and which effect's actions count as one repeated action.
@MainActor
final class ReplFrictionTests: XCTestCase {
  /// A note and its edit sheet, whose actions are named like the REPL's `:save` and `:cancel`.
  static let notes = """
    local relua = require "relua"
    local feature, on = relua.feature, relua.on
    local Editor = feature "Editor" {
      state = { text = "" },
      bindable = { "text" },
      actions = { save = {}, cancel = {} },
      view = function(s) return "Editing: " .. s.text end,
    }
    return feature "Notes" {
      state = { saved = "", sheet = nil, rows = relua.identified { { id = 1 } } },
      actions = { edit = {}, tag = "string" },
      compose = { relua.presents("sheet", Editor) },
      reduce = on {
        edit = function(s) s.sheet = { text = s.saved } end,
        tag = function(s, text) s.saved = s.saved .. text end,
        ["sheet.save"] = function(s) s.saved = s.sheet.text; s.sheet = nil end,
        ["sheet.cancel"] = function(s) s.sheet = nil end,
      },
      view = function(s) return "Saved: " .. s.saved end,
    }
    """

  private final class Printed: @unchecked Sendable {  // `lines` is under `lock`
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    func take() -> String { lock.withLock { defer { lines = [] }; return lines.joined(separator: "\n") } }
  }

  private var directory: URL!
  private var lua: LuaState!
  private var session: ConsoleSession!
  private let printed = Printed()

  override func setUp() async throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("relua-frictions-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("Notes.lua").path
    try Self.notes.write(toFile: file, atomically: true, encoding: .utf8)
    lua = try LuaState(options: LuaOptions(scriptRoots: [directory.path]))
    let printed = self.printed
    let output = ConsoleOutput(useColor: false, write: { printed.add($0) }, writeError: { printed.add($0) })
    session = try ConsoleSession(lua: lua, reader: LineReader(interactive: false), output: output)
    let loaded = await session.load(file: file)
    XCTAssertTrue(loaded, printed.take())
    _ = printed.take()
  }

  override func tearDown() async throws {
    session.feature?.stop()
    lua.close()
    try? FileManager.default.removeItem(at: directory)
  }

  private func type(_ line: String) async -> String {
    await session.handle(line)
    return printed.take()
  }

  func testTheSheetsSaveIsSentAndTheCommandIsExplained() async throws {
    _ = await type(":edit")
    _ = await type(#":binding.text "hello""#)
    let saved = await type(":save")
    XCTAssertTrue(saved.contains("(:save sends Editor's action save, on screen; the REPL's command is ::save FILE)"), saved)
    XCTAssertTrue(saved.contains("Saved: hello"), saved)
    // Explained once per name.
    _ = await type(":edit")
    let again = await type(":save")
    XCTAssertFalse(again.contains("::save FILE"), again)
    // On the root, which has no action save: the command, as before.
    let usage = await type(":save")
    XCTAssertEqual(usage, "usage: :save FILE")
  }

  func testAnArgumentTheActionCannotTakeMakesItTheCommand() async throws {
    _ = await type(":edit")
    let path = directory.appendingPathComponent("state.json").path
    let written = await type(":save \(path)")
    XCTAssertTrue(written.contains("(:save \(path) is the REPL's command: Editor's action save takes no payload; :save alone sends it, ::save FILE is always the command)"), written)
    XCTAssertTrue(written.contains("saved to \(path)"), written)
    XCTAssertTrue(FileManager.default.fileExists(atPath: path))
    // The sheet is still there; ::cancel is the command (no effect runs), :cancel the button.
    let command = await type("::cancel")
    XCTAssertEqual(command, "(no effect is running)")
    let cancelled = await type(":cancel")
    XCTAssertTrue(cancelled.contains("Saved: "), cancelled)
    XCTAssertTrue(cancelled.contains("the REPL's command is ::cancel [N | all]"), cancelled)
  }

  func testExplicitCommandsAndHelp() async throws {
    let unknown = await type("::tag x")
    XCTAssertTrue(unknown.contains("unknown command '::tag'"), unknown)
    _ = await type(":edit")
    let help = await type("::help")
    XCTAssertTrue(help.contains("(the REPL's command here is ::save FILE)"), help)
    XCTAssertTrue(help.contains("(the REPL's command here is ::cancel [N | all])"), help)
    XCTAssertTrue(help.contains("::COMMAND"), help)
  }

  func testAnElementThatIsNotThereIsOneMessageAndNothingIsSent() async throws {
    XCTAssertEqual(
      session.feature?.missingElement(in: "rows[id=999].toggle"),
      "cannot send rows[id=999].toggle: rows has no element with the id 999 (its ids: 1); nothing was sent")
    XCTAssertNil(session.feature?.missingElement(in: "rows[id=1].toggle"))
    XCTAssertNil(session.feature?.missingElement(in: "edit"))
  }

  func testOnlyOneReceivedActionCountsAsARepeat() {
    let tick = FeatureAction(steps: [.name("tick")][...], payload: .null)
    var reduced = FeatureConsole.ReducedSinceShown()
    reduced.note(tick, received: true)
    XCTAssertEqual(reduced.onlyReceived, tick)
    reduced.note(tick, received: true)
    XCTAssertNil(reduced.onlyReceived, "two actions between showings are not one repeat")
    var sent = FeatureConsole.ReducedSinceShown()
    sent.note(tick, received: false)
    XCTAssertNil(sent.onlyReceived, "an action sent from the prompt is not an effect's")
  }
}
