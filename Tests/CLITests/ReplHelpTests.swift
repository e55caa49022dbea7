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
