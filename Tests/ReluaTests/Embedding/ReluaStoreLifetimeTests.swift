import XCTest

@testable import Relua

/// An embedded store's end: released, it cancels its effects (TCA 1.18); a root feature that
/// dismisses itself dismisses it (`isDismissed`, its effects cancelled, later sends refused with a
/// warning naming the script's line).
@MainActor
final class ReluaStoreLifetimeTests: XCTestCase {
  /// `start` runs an effect that would run for ever (it marks in globals that it started and that
  /// its coroutine was closed); `close` dismisses the feature from an effect.
  static let screen = """
    local relua = require "relua"
    return relua.feature "Recording" {
      state = { count = 0 },
      actions = { start = {}, close = {} },
      reduce = relua.on {
        start = function(s, _, deps)
          s.count = s.count + 1
          return relua.Effect.run(function()
            effectStarted = true
            local closing <close> = setmetatable({}, { __close = function() effectClosed = true end })
            deps.clock.sleep(9e9)
          end)
        end,
        close = function(_, _, deps)
          return relua.Effect.run(function() deps.dismiss() end)
        end,
      },
    }
    """

  private func global(_ name: String, in relua: ReluaRuntime) throws -> Bool {
    try relua.lua.global(name).isTruthy
  }

  /// Lets the store's effects have their first turns until `name` is set (at most 2 s).
  private func waitFor(_ name: String, in relua: ReluaRuntime) async throws {
    for _ in 0..<200 where try !global(name, in: relua) {
      try await Task.sleep(for: .milliseconds(10))
    }
    XCTAssertTrue(try global(name, in: relua), "\(name) was never set")
  }

  func testAReleasedStoreCancelsItsEffects() async throws {
    let relua = try ReluaRuntime()
    let feature = try relua.loadFeature(source: Self.screen, name: "Recording.lua")
    var store: ReluaStore? = try relua.makeStore(feature)
    try store!.send("start")
    try await waitFor("effectStarted", in: relua)
    XCTAssertFalse(try global("effectClosed", in: relua))
    store = nil
    // Released on the main actor: its effects are cancelled there and then (the coroutine closed).
    XCTAssertTrue(try global("effectClosed", in: relua))
  }

  func testARootThatDismissesItselfDismissesTheStore() async throws {
    let relua = try ReluaRuntime()
    let feature = try relua.loadFeature(source: Self.screen, name: "Recording.lua")
    let store = try relua.makeStore(feature)
    XCTAssertFalse(store.isDismissed)
    try store.send("start")
    try await waitFor("effectStarted", in: relua)
    try store.send("close")
    for _ in 0..<200 where !store.isDismissed { try await Task.sleep(for: .milliseconds(10)) }
    XCTAssertTrue(store.isDismissed)
    // Its effects were cancelled: the long one's coroutine is closed.
    XCTAssertTrue(try global("effectClosed", in: relua))
    XCTAssertEqual(store.warnings, [])

    // A later send is refused: a warning naming where the feature dismissed itself; nothing runs.
    try store.send("start")
    XCTAssertEqual(store.state[key: "count"], .integer(1))
    XCTAssertEqual(store.warnings.count, 1)
    let warning = try XCTUnwrap(store.warnings.first)
    XCTAssertTrue(
      warning.hasPrefix("An action was sent to a store that dismissed itself (dismiss() at Recording.lua:15): start."), warning)
    XCTAssertTrue(warning.hasSuffix("It was not processed."), warning)
  }
}
