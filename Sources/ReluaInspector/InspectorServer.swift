import Foundation
import LoopbackListener
import LoopbackWeb
import Relua
import WebSocket

/// `relua repl --inspect`: an HTTP and WebSocket server on 127.0.0.1 for the inspector's page.
///
///     GET /?token=T            the page (also /app.js, /style.css)
///     GET /ws?token=T          a WebSocket of `InspectorMessage`s: the history, then live entries;
///                              the page's `InspectorRequest`s the other way
///
/// Every request needs the token and `Host: 127.0.0.1:PORT`, a WebSocket also the page's own
/// `Origin` (`LoopbackAccess`); anything else is 403. It listens on loopback only, never on
/// another interface. The REPL feeds it through `hub` (`ConsoleSession.eventObserver`).
///
/// Built on relua's own `LoopbackListener` (a thread per connection, at most
/// `InspectorLimits.maxConnections`), `WebSocket` framing and the loopback server part it shares
/// with `relua app` (LoopbackWeb: `LoopbackWebConnection`): what a page can make it hold is
/// bounded (`InspectorLimits`), a message by its declared length before it
/// is read. Its threads never block the main actor; a page's requests run on it.
package final class InspectorServer: Sendable {
  package let hub: InspectorHub
  package let token: InspectorToken
  package let port: UInt16
  package let limits: InspectorLimits
  /// What the connections went through (tests look at it).
  package let stats: InspectorConnectionStats
  private let listener: LoopbackListener
  /// Keeps the pages' effects in flight current (while a session is attached).
  private let watching: Task<Void, Never>?

  /// The page's address, with its token: what the REPL prints.
  package var url: String { "http://127.0.0.1:\(port)/?token=\(token.hex)" }

  /// Connections being served now.
  package var openConnections: Int { listener.openConnections }

  package struct StartFailure: Error, CustomStringConvertible {
    package var description: String
  }

  private init(
    hub: InspectorHub, token: InspectorToken, port: UInt16, limits: InspectorLimits, stats: InspectorConnectionStats,
    listener: LoopbackListener, watching: Task<Void, Never>?
  ) {
    self.hub = hub
    self.token = token
    self.port = port
    self.limits = limits
    self.stats = stats
    self.listener = listener
    self.watching = watching
  }

  /// Starts listening on 127.0.0.1:`port` (0: a free port the system picks). `session`: the store
  /// the pages drive (send, jump, cancel, export); without one they only watch. Its events reach
  /// the pages through `hub.record` (the caller connects them).
  @MainActor
  package static func start(
    port: UInt16 = 0, hub: InspectorHub = InspectorHub(), session: (any InspectedSession)? = nil, limits: InspectorLimits = .standard
  ) async throws -> InspectorServer {
    let token = InspectorToken()
    let access = LoopbackAccess.inspector(token: token)
    let page = try LoopbackPage.inspector(token: token)
    let control = session.map { InspectorControl(hub: hub, session: $0) }
    let stats = InspectorConnectionStats()
    let connection = LoopbackWebConnection(access: access, page: page, hub: hub, limits: limits, stats: stats) { text in
      control?.answer(text) ?? InspectorMessage.result(request: nil, error: "this inspector only shows: no store is attached to it")
    }
    let listener = LoopbackListener()
    let bound: UInt16
    do {
      bound = try connection.listen(with: listener, port: port)
    } catch {
      throw StartFailure(description: error.description)
    }
    let watching = control.map { control in Task { @MainActor in await control.watchEffects() } }
    return InspectorServer(hub: hub, token: token, port: bound, limits: limits, stats: stats, listener: listener, watching: watching)
  }

  /// Stops listening and ends the pages' WebSockets (a close frame, 1001).
  package func stop() async {
    watching?.cancel()
    listener.stop()
    hub.close()
  }
}
