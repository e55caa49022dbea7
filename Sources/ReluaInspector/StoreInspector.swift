import Foundation
import Relua

/// The inspector for a store your Swift program made: the page `relua repl --inspect` serves —
/// the action log with diffs, the state, the screens, the effects in flight, time travel, a form
/// to send actions and the session exported as a test — for a `ReluaStore`.
///
///     let store = try runtime.makeStore(try runtime.loadFeature(file: "Scripts/Features/Todos.lua"))
///     let inspector = try await StoreInspector.start(inspecting: store)
///     print("Inspector:", inspector.url)   // open it in a browser
///     …
///     await inspector.stop()
///
/// It listens on 127.0.0.1 only; the URL carries a random token without which every request is
/// refused. Actions the program sends show as sent by `program`, the page's as `page`. While it
/// runs it holds the store's reduce hook and wraps its dependencies to record the session (what
/// an export writes); `stop` gives them back.
@MainActor
public final class StoreInspector {
  private let server: InspectorServer
  private let inspection: ReluaStoreInspection

  /// The page's address, with its token.
  public var url: URL { URL(string: server.url)! }

  private init(server: InspectorServer, inspection: ReluaStoreInspection) {
    self.server = server
    self.inspection = inspection
  }

  /// Serves the inspector of `store` on 127.0.0.1:`port` (0: a free port the system picks).
  public static func start(inspecting store: ReluaStore, port: UInt16 = 0) async throws -> StoreInspector {
    let hub = InspectorHub()
    let inspection = ReluaStoreInspection(store: store) { hub.record($0) }
    do {
      let server = try await InspectorServer.start(port: port, hub: hub, session: inspection)
      return StoreInspector(server: server, inspection: inspection)
    } catch {
      inspection.close()
      throw error
    }
  }

  /// Stops serving, closes the pages' connections and leaves the store as it was given.
  public func stop() async {
    inspection.close()
    await server.stop()
  }
}
