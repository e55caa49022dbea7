import FlyingFox
import Foundation
import Relua

/// `relua repl --inspect`: an HTTP and WebSocket server on 127.0.0.1 for the inspector's page.
///
///     GET /?token=T            the page (also /app.js, /style.css)
///     GET /ws?token=T          a WebSocket of `InspectorMessage`s: the history, then live entries;
///                              the page's `InspectorRequest`s the other way
///
/// Every request needs the token and `Host: 127.0.0.1:PORT`, a WebSocket also the page's own
/// `Origin` (`InspectorAccess`); anything else is 403. It listens on loopback only, never on
/// another interface. The REPL feeds it through `hub` (`ConsoleSession.eventObserver`).
package final class InspectorServer: Sendable {
  package let hub: InspectorHub
  package let token: InspectorToken
  package let port: UInt16
  private let server: HTTPServer
  private let running: Task<Void, any Error>
  /// Keeps the pages' effects in flight current (while a session is attached).
  private let watching: Task<Void, Never>?

  /// The page's address, with its token: what the REPL prints.
  package var url: String { "http://127.0.0.1:\(port)/?token=\(token.hex)" }

  package struct StartFailure: Error, CustomStringConvertible {
    package var description: String
  }

  private init(
    hub: InspectorHub, token: InspectorToken, port: UInt16, server: HTTPServer, running: Task<Void, any Error>, watching: Task<Void, Never>?
  ) {
    self.hub = hub
    self.token = token
    self.port = port
    self.server = server
    self.running = running
    self.watching = watching
  }

  /// Starts listening on 127.0.0.1:`port` (0: a free port the system picks). `session`: the store
  /// the pages drive (send, jump, cancel, export); without one they only watch. Its events reach
  /// the pages through `hub.record` (the caller connects them).
  @MainActor
  package static func start(port: UInt16 = 0, hub: InspectorHub = InspectorHub(), session: (any InspectedSession)? = nil) async throws -> InspectorServer {
    let token = InspectorToken()
    let access = InspectorAccess(token: token)
    let page = try InspectorPage(token: token)
    let address = try sockaddr_in.inet(ip4: "127.0.0.1", port: port)
    let control = session.map { InspectorControl(hub: hub, session: $0) }
    let server = HTTPServer(
      address: address, logger: .disabled, handler: InspectorRoutes(access: access, page: page, hub: hub, control: control))
    let failure = LockedFailure()
    let running = Task {
      do { try await server.run() } catch {
        failure.set(error)
        throw error
      }
    }
    // Until it listens, or its own error (the port is taken…) comes back: polled, as
    // `waitUntilListening` would wait out its timeout after a failed start.
    let deadline = ContinuousClock.now + .seconds(5)
    while await !server.isListening {
      if let error = failure.error { throw StartFailure(port: port, error) }
      guard ContinuousClock.now < deadline else {
        running.cancel()
        throw StartFailure(description: "cannot start the inspector on 127.0.0.1:\(port): it did not listen within 5 s")
      }
      try await Task.sleep(for: .milliseconds(5))
    }
    guard case .ip4(_, let bound)? = await server.listeningAddress else {
      running.cancel()
      throw StartFailure(description: "cannot start the inspector: it is not listening on 127.0.0.1")
    }
    access.listening(on: bound)
    let watching = control.map { control in Task { @MainActor in await control.watchEffects() } }
    return InspectorServer(hub: hub, token: token, port: bound, server: server, running: running, watching: watching)
  }

  /// Stops listening and ends the pages' WebSockets.
  package func stop() async {
    watching?.cancel()
    hub.close()
    await server.stop(timeout: 0)
    running.cancel()
  }
}

extension InspectorServer.StartFailure {
  init(port: UInt16, _ error: any Error) {
    description = "cannot start the inspector on 127.0.0.1:\(port): \(error.localizedDescription)"
  }
}

/// A failed start's error, from the server's task to the one waiting for it to listen.
private final class LockedFailure: @unchecked Sendable {  // `stored` is under `lock`
  private let lock = NSLock()
  private var stored: (any Error)?

  var error: (any Error)? { lock.withLock { stored } }
  func set(_ error: any Error) { lock.withLock { stored = error } }
}

/// Every route, behind the access check (the token first, so that nothing, not even a 404, answers
/// without it).
private struct InspectorRoutes: HTTPHandler {
  let access: InspectorAccess
  let page: InspectorPage
  let hub: InspectorHub
  let control: InspectorControl?

  func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
    if let refusal = access.refusal(of: request) { return InspectorAccess.forbidden(refusal) }
    guard request.method == .GET else { return HTTPResponse(statusCode: .methodNotAllowed) }
    if request.path == "/ws" {
      if let refusal = access.refusal(ofWebSocket: request) { return InspectorAccess.forbidden(refusal) }
      return try await WebSocketHTTPHandler.webSocket(InspectorSocket(hub: hub, control: control)).handleRequest(request)
    }
    if let origin = access.origin, let response = page.response(for: request.path, origin: origin) { return response }
    return HTTPResponse(statusCode: .notFound)
  }
}
