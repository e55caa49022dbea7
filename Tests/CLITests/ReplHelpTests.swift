import XCTest

/// `:help` in feature mode lists what the screen on top takes, with payload types.
final class ReplHelpTests: XCTestCase {
  private var scripts: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Scripts")
  }

  func testHelpListsTheActionsOfTheScreenOnTopWithTheirPayloadTypes() throws {
    let game = scripts.appendingPathComponent("Features/GuessingGame.lua").path
    let result = try ReluaProcess.run(["repl", game], stdin: ":help\n:showResults\n:help\n")
    XCTAssertEqual(result.exitCode, 0, result.stderr)
    XCTAssertTrue(result.stdout.contains("Actions of Game, the screen on top:\n  :showResults\n"), result.stdout)
    XCTAssertTrue(result.stdout.contains("  :setCount integer  (counter.setCount)\n"), result.stdout)
    XCTAssertTrue(result.stdout.contains("  :destination.…  presents results (ResultList)\n"), result.stdout)
    XCTAssertTrue(result.stdout.contains("Actions of ResultList, the screen on top (at destination.results):\n  :remove {integer}\n  :back  closes it"), result.stdout)
  }

  func testHelpOverAnAlertPointsAtItsButtons() throws {
    let destinations = scripts.appendingPathComponent("Features/CaseStudies/Destinations.lua").path
    let result = try ReluaProcess.run(["repl", destinations], stdin: ":showAlert\n:help\n")
    XCTAssertEqual(result.exitCode, 0, result.stderr)
    XCTAssertTrue(result.stdout.contains("On top, the alert (at destination.alert): each button's command is on the screen; :back dismisses it."), result.stdout)
  }

  /// `:rows[2].addRow` names the second row by position, which an action does not: the error
  /// shows the spelling by id, with the id the second row has.
  func testAnActionWithAPositionShowsTheElementsID() throws {
    let recursion = scripts.appendingPathComponent("Features/CaseStudies/Recursion.lua").path
    let result = try ReluaProcess.run(["repl", recursion], stdin: ":addRow\n:addRow\n=store:state().rows[2].id\n:rows[2].addRow\n:rows[9].addRow\n")
    XCTAssertEqual(result.exitCode, 0, result.stderr)
    let id = try XCTUnwrap(result.stdout.split(separator: "\n").first { $0.count == 36 && $0.contains("-") }, result.stdout)
    XCTAssertTrue(
      result.stderr.contains(
        "cannot read the action 'rows[2].addRow': [2] would be an element by its position; an action names the element by its id: [id=2]\n"
          + "(the element at that position: :rows[id=\"\(id)\"].addRow)"),
      result.stderr)
    // No element there: the error alone.
    XCTAssertTrue(result.stderr.contains("cannot read the action 'rows[9].addRow'"), result.stderr)
    XCTAssertFalse(result.stderr.contains("rows[9].addRow'\n(the element"), result.stderr)
  }

  func testCancelListsAndCancelsRunningEffects() throws {
    let timers = scripts.appendingPathComponent("Features/CaseStudies/Timers.lua").path
    let result = try ReluaProcess.run(["repl", timers], stdin: ":cancel\n:toggleTimerButtonTapped\n:cancel\n:cancel 7\n:cancel 0\n:cancel\n")
    XCTAssertEqual(result.exitCode, 0, result.stderr)
    XCTAssertTrue(result.stdout.contains("(no effect is running)\n"), result.stdout)
    XCTAssertTrue(result.stdout.contains("#0  an effect, cancellable as \"timer\"\n:cancel N stops one, :cancel all every one\n"), result.stdout)
    XCTAssertTrue(result.stdout.contains("cancelled #0  an effect, cancellable as \"timer\"\n(no effect is running)"), result.stdout)
    XCTAssertTrue(result.stderr.contains("no effect #7 is running (:cancel lists them)"), result.stderr)
  }

  func testACommandThatChangesNothingSaysSo() throws {
    let game = scripts.appendingPathComponent("Features/GuessingGame.lua").path
    let result = try ReluaProcess.run(["repl", game], stdin: ":showResults\n:remove {}\n")
    XCTAssertEqual(result.exitCode, 0, result.stderr)
    XCTAssertTrue(result.stdout.hasSuffix("(no change)\n"), result.stdout)
  }
}
