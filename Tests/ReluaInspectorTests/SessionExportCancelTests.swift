import Foundation
import XCTest

@testable import Relua
@testable import ReluaTesting
@testable import ReluaConsole

/// Issue #31: the inspector's export replays cancellations (the page's Cancel, `:cancel`) and an
/// effect's action that failed in its reducer, as `:record` does.
@MainActor
final class SessionExportCancelTests: XCTestCase {
  /// A ticker on a short timer, cancellable, and an effect whose action fails.
  static let ticker = """
    local relua = require "relua"
    local feature, on, Effect = relua.feature, relua.on, relua.Effect
    return feature "Tally" {
      state = { count = 0 },
      actions = { start = {}, tick = {}, later = {}, boom = {} },
      reduce = on {
        start = function(_, _, deps)
          return Effect.run(function(send)
            for _ in deps.clock.timer(0.05) do send("tick") end
          end):cancellable("ticker")
        end,
        tick = function(s) s.count = s.count + 1 end,
        later = function(_, _, deps)
          return Effect.run(function(send) deps.clock.sleep(0.05); send("boom") end)
        end,
        boom = function(s) s.count = -1; error("boom fails") end,
      },
    }
    """

  private func exportPasses(_ repl: ReplSession) async throws -> String {
    let (fileName, text) = try repl.session.inspectorExport()
    let feature = try XCTUnwrap(repl.session.feature?.file)
    let path = URL(fileURLWithPath: feature).deletingLastPathComponent().appendingPathComponent(fileName).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let summary = await LuaTestRunner().run(paths: [path])
    XCTAssertEqual(summary.passed, 1, summary.results.compactMap(\.failure).map { "\($0)" }.joined(separator: "\n") + "\n" + text)
    return text
  }

  func testTheExportReplaysThePagesCancelAndCancelAll() async throws {
    let repl = try await ReplSession(feature: Self.ticker, events: { _ in })
    defer { repl.close() }
    await repl.type(":start")
    await repl.type(":start")
    try await Task.sleep(for: .milliseconds(130))
    let running = repl.session.runningEffects.map(\.id)
    XCTAssertEqual(running.count, 2)
    try repl.session.inspectorCancel(effect: running[1])
    try await Task.sleep(for: .milliseconds(80))
    await repl.type(":cancel all")
    try await Task.sleep(for: .milliseconds(120))  // no tick after it
    let text = try await exportPasses(repl)
    XCTAssertTrue(text.contains("store:cancelEffect(2)  -- :cancel #\(running[1])"), text)
    XCTAssertTrue(text.contains("store:skipInFlightEffects()  -- :cancel all"), text)
    XCTAssertTrue(text.contains("store:receive(\"tick\""), text)
  }

  func testAnEffectsFailedActionStartsTheExportOverAndEndsARecordingWrittenUpToIt() async throws {
    let repl = try await ReplSession(feature: Self.ticker, events: { _ in })
    defer { repl.close() }
    let feature = try XCTUnwrap(repl.session.feature?.file)
    let recorded = URL(fileURLWithPath: feature).deletingLastPathComponent().appendingPathComponent("failed_test.lua").path
    await repl.type(":record \(recorded)")
    await repl.type(":start")
    try await Task.sleep(for: .milliseconds(120))
    await repl.type(":later")
    try await Task.sleep(for: .milliseconds(150))
    XCTAssertNil(repl.session.feature?.recording, "the recording ended at the failure")
    XCTAssertTrue(repl.output.contains("an effect's action (boom) failed in its reducer, which a test cannot replay: the recording is written to \(recorded)"), repl.output)
    let summary = await LuaTestRunner().run(paths: [recorded])
    let written = (try? String(contentsOfFile: recorded, encoding: .utf8)) ?? ""
    XCTAssertEqual(summary.passed, 1, summary.results.compactMap(\.failure).map { "\($0)" }.joined(separator: "\n") + "\n" + written)
    XCTAssertFalse(written.contains("receive(\"boom\""), written)
    // The export started over after the failure: what the ticker (now older than it) delivers is sent.
    try await Task.sleep(for: .milliseconds(80))
    let text = try await exportPasses(repl)
    XCTAssertTrue(text.contains("store:send(\"tick\"") && text.contains("-- delivered by an effect started before the recording"), text)
  }
}
