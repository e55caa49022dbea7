import Foundation
import ReluaInspector
import WebSocket
import XCTest
@testable import Relua
@testable import ReluaTesting
@testable import ReluaConsole

/// A named effect (`Effect.run(fn, { name = "ticker" })`, TCA 1.23's `Effect.run(name:)`) is
/// listed with its name and line by the REPL's `:cancel` and the inspector's effects (#34, gap 10).
@MainActor
final class InspectorNamedEffectsTests: XCTestCase {
  static let named = """
    local relua = require "relua"
    local feature, on, Effect = relua.feature, relua.on, relua.Effect
    return feature "Ticker" {
      state = { count = 0 },
      actions = { start = {}, tick = {} },
      reduce = on {
        start = function(s, _, deps)
          return Effect.run(function(send)
            while true do deps.clock.sleep(60); send("tick") end
          end, { name = "ticker" }):cancellable("timer", true)
        end,
        tick = function(s) s.count = s.count + 1 end,
      },
    }
    """

  private var server: InspectorServer!
  private var repl: ReplSession!
  private var connection: PageConnection!

  override func tearDown() async throws {
    connection?.close()
    await server?.stop()
    repl?.close()
  }

  func testANamedEffectIsListedWithItsNameAndLine() async throws {
    let hub = InspectorHub()
    repl = try await ReplSession(feature: Self.named) { hub.record($0) }
    server = try await InspectorServer.start(hub: hub, session: repl.session)
    connection = try await PageConnection(port: Int(server.port), token: server.token.hex)
    let history = try await connection.next()
    XCTAssertEqual(history["type"] as? String, "history")

    await repl.type(":start")
    let started = try await connection.next()
    let effects = try XCTUnwrap((started["live"] as? [String: Any])?["effects"] as? [[String: Any]])
    XCTAssertEqual(effects.count, 1)
    XCTAssertEqual(effects[0]["name"] as? String, "ticker")
    let place = try XCTUnwrap(effects[0]["place"] as? String)
    XCTAssertTrue(place.hasSuffix(".lua:8"), place)  // the line of the Effect.run

    await repl.type(":cancel")
    XCTAssertTrue(
      repl.output.contains("#0  an effect named \"ticker\" (\(place)), cancellable as \"timer\"\n"), repl.output)
    XCTAssertEqual(repl.session.feature?.store.store.runningEffects.first?.kindDescription, "an effect named \"ticker\" (\(place))")
    await repl.type(":cancel all")
  }
}
