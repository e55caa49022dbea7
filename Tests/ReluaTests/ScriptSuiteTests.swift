import Foundation
import Relua
import ReluaTesting
import XCTest

/// Runs the Lua script tests (`Scripts/Tests`) inside `swift test`, so that command alone covers
/// the features written in Lua. Each failing script test becomes one XCTest failure with its message.
@MainActor
final class ScriptSuiteTests: XCTestCase {
  func testScriptSuitePasses() async throws {
    prepareScriptSuite()
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let tests = root.appendingPathComponent("Scripts/Tests").path
    let runner = LuaTestRunner(configuration: LuaTestConfiguration(print: { _ in }))
    let summary = await runner.run(paths: [tests])
    XCTAssertGreaterThan(summary.results.count, 20, "the script suite should not be empty")
    for result in summary.results {
      if case .failed(let failure) = result.outcome {
        XCTFail("\(result.file): \(result.name): \(failure)")
      }
    }
  }
}
