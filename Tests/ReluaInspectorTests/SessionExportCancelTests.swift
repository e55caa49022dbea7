import Foundation
import XCTest

@testable import Relua
@testable import ReluaTesting
@testable import ReluaConsole

/// Issue #31: the inspector's export replays cancellations (the page's Cancel, `:cancel`) and an
/// effect's action that failed in its reducer, as `:record` does.
@MainActor
final class SessionExportCancelTests: XCTestCase {
  /// A ticker on a timer, cancellable, and an effect whose action fails, due much sooner than a
  /// tick. The tests act right after a tick was delivered (they wait for the count to change), so
  /// the next tick is a whole period away: what they do live lands between the same ticks as in
  /// the replay, on a test clock — even when the machine is loaded and the live timer runs late
  /// (its sleeps start when the previous tick was delivered, so its lateness adds up; the test
  /// clock's do not).
  static let ticker = """
    local relua = require "relua"
    local feature, on, Effect = relua.feature, relua.on, relua.Effect
    return feature "Tally" {
      state = { count = 0 },
      actions = { start = {}, tick = {}, later = {}, boom = {} },
      reduce = on {
        start = function(_, _, deps)
          return Effect.run(function(send)
            for _ in deps.clock.timer(0.2) do send("tick") end
          end):cancellable("ticker")
        end,
        tick = function(s) s.count = s.count + 1 end,
        later = function(_, _, deps)
          return Effect.run(function(send) deps.clock.sleep(0.01); send("boom") end)
        end,
        boom = function(s) s.count = -1; error("boom fails") end,
      },
    }
    """

  /// The live state's count (nil if there is none).
  private func count(_ repl: ReplSession) -> Value? {
    try? repl.session.feature?.currentState.at(path: "count")
  }

  /// Polls until `condition` holds (between the session's deliveries, which are on the main
  /// actor), and throws after `timeout`: quick when the machine is idle, still right when it is
  /// loaded, where a fixed sleep is either too long or too short.
  private func waitUntil(_ what: String, timeout: Duration = .seconds(5), _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
      guard ContinuousClock.now < deadline else { throw Timeout(description: "not within \(timeout): \(what)") }
      try await Task.sleep(for: .milliseconds(2))
    }
  }

  struct Timeout: Error, CustomStringConvertible { var description: String }

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
    try await waitUntil("both tickers ticked") { self.count(repl) == 2 }
    let running = repl.session.runningEffects.map(\.id)
    XCTAssertEqual(running.count, 2)
    try repl.session.inspectorCancel(effect: running[1])
    try await waitUntil("the ticker left ticked") { self.count(repl) == 3 }
    await repl.type(":cancel all")
    try await Task.sleep(for: .milliseconds(300))  // no tick after it (a period and a half)
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
    try await waitUntil("the ticker ticked") { self.count(repl) == 1 }
    await repl.type(":later")
    try await waitUntil("the recording ended") { repl.session.feature?.recording == nil }
    XCTAssertNil(repl.session.feature?.recording, "the recording ended at the failure")
    XCTAssertTrue(repl.output.contains("an effect's action (boom) failed in its reducer, which a test cannot replay: the recording is written to \(recorded)"), repl.output)
    let summary = await LuaTestRunner().run(paths: [recorded])
    let written = (try? String(contentsOfFile: recorded, encoding: .utf8)) ?? ""
    XCTAssertEqual(summary.passed, 1, summary.results.compactMap(\.failure).map { "\($0)" }.joined(separator: "\n") + "\n" + written)
    XCTAssertFalse(written.contains("receive(\"boom\""), written)
    // The export started over after the failure: what the ticker (now older than it) delivers is sent.
    try await waitUntil("the ticker ticked after the failure") { self.count(repl) == 2 }
    let text = try await exportPasses(repl)
    XCTAssertTrue(text.contains("store:send(\"tick\"") && text.contains("-- delivered by an effect started before the recording"), text)
  }
}
