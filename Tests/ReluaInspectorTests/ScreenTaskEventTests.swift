import Composable
import XCTest
@testable import Relua
@testable import ReluaConsole

/// A screen's task as an inspector sees a REPL session (issue #34, gap 7): the task actions the
/// REPL sends as screens appear come as sent by `task`, and each screen says what its task sends.
@MainActor
final class ScreenTaskEventTests: XCTestCase {
  static let meetings = """
    local relua = require "relua"
    local Detail = relua.feature "Detail" {
      state = { loads = 0 },
      actions = { onTask = {} },
      task = "onTask",
      reduce = relua.on { onTask = function(s) s.loads = s.loads + 1 end },
    }
    return relua.feature "Meetings" {
      state = { loads = 0, path = {} },
      actions = { onTask = {}, open = {} },
      task = "onTask",
      compose = { relua.stack("path", { detail = Detail }) },
      reduce = relua.on {
        onTask = function(s) s.loads = s.loads + 1 end,
        open = function(s) relua.push(s.path, { detail = { loads = 0 } }) end,
      },
    }
    """

  func testTheTasksOfAppearingScreensAreSentByTaskAndEachScreenNamesItsTask() async throws {
    var events: [ConsoleEvent] = []
    let repl = try await ReplSession(feature: Self.meetings) { events.append($0) }
    defer { repl.close() }
    await repl.type(":open")
    await repl.type(":back")
    await repl.type(":open")
    XCTAssertEqual(events.dropFirst().map(\.kind), [
      .action(name: "onTask", payload: "", sender: .task),
      .action(name: "open", payload: "", sender: .typed),
      .action(name: "path[id=0].detail.onTask", payload: "", sender: .task),
      .action(name: "path.popFrom", payload: "0", sender: .typed),
      .action(name: "open", payload: "", sender: .typed),
      .action(name: "path[id=1].detail.onTask", payload: "", sender: .task),
    ])
    XCTAssertTrue(repl.output.contains("(task) :path[id=1].detail.onTask"), repl.output)
    let live = try XCTUnwrap(repl.session.feature?.inspectionLive())
    XCTAssertEqual(live.screens.map(\.tasks), [["onTask"], ["path[id=1].detail.onTask"]])
  }
}
