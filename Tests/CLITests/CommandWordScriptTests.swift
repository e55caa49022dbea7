import XCTest

/// A script named like one of relua's commands (`app`): the command comes first, as in git or
/// swift; the script runs as `relua ./app`, `relua -- app` or `relua run app`, and `relua app`
/// alone beside it says so.
final class CommandWordScriptTests: XCTestCase {
  func testAScriptNamedAppRunsByItsPathAndReluaAppAloneSaysHow() throws {
    let dir = try ScriptDirectory()
    _ = try dir.write("app", "print('the script app', ...)")
    _ = try dir.write("app.lua", "print('the script app.lua')")
    for words in [["./app", "x"], ["--", "app", "x"], ["run", "app", "x"]] {
      let result = try ReluaProcess.run(words, currentDirectory: dir.url)
      XCTAssertEqual(result.stdout, "the script app\tx\n", "\(words): \(result.stderr)")
    }
    XCTAssertEqual(try ReluaProcess.run(["app.lua"], currentDirectory: dir.url).stdout, "the script app.lua\n")

    let alone = try ReluaProcess.run(["app"], currentDirectory: dir.url)
    XCTAssertNotEqual(alone.exitCode, 0)
    XCTAssertTrue(alone.stderr.contains("'app' is relua's command (relua app --help), not the file ./app"), alone.stderr)
    XCTAssertTrue(alone.stderr.contains("relua ./app (or relua -- app, relua run app)"), alone.stderr)
    XCTAssertTrue(alone.stderr.contains("Missing expected argument '<file>'"), alone.stderr)

    let help = try ReluaProcess.run(["app", "--help"], currentDirectory: dir.url)
    XCTAssertEqual(help.exitCode, 0)
    XCTAssertFalse(help.stderr.contains("relua's command") || help.stdout.contains("relua's command"), help.stdout)
  }

  func testWithoutSuchAFileAppAloneIsTheUsualError() throws {
    let dir = try ScriptDirectory()
    let alone = try ReluaProcess.run(["app"], currentDirectory: dir.url)
    XCTAssertNotEqual(alone.exitCode, 0)
    XCTAssertTrue(alone.stderr.contains("Missing expected argument '<file>'"), alone.stderr)
    XCTAssertFalse(alone.stderr.contains("relua's command"), alone.stderr)
  }
}
