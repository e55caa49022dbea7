import Foundation

/// Who may use a loopback server (the inspector, `relua app`): every request must carry the token (`?token=HEX`) and name the
/// server as its host; a WebSocket must also come from the server's own page (its `Origin`).
///
/// - The token keeps out whoever was not given the URL (other users of the machine, a page in the
///   browser probing loopback ports).
/// - The host check refuses DNS rebinding (a page of `evil.example` made to resolve to 127.0.0.1
///   sends `Host: evil.example:PORT`), even before the token is looked at.
/// - The origin check refuses cross-site WebSockets, which browsers do not stop by themselves (a
///   WebSocket is not subject to the same-origin policy; only the server can look at `Origin`).
///   A client without an `Origin` is refused too: the only client is the page.
package struct LoopbackAccess: Sendable {
  package let token: LoopbackToken
  /// The port the server listens on (known once it listens; before that, everything is refused).
  private let port: LockedPort

  /// What the server is called in a refusal (`inspector`, `app`), the label of the address
  /// the program prints for it (`Inspector`, `App`) and the program's name (`relua`).
  let name: String
  let addressLabel: String
  let program: String

  /// The rules for a server called `name` whose address `program` prints as `addressLabel: URL`.
  package init(token: LoopbackToken, name: String, addressLabel: String, program: String) {
    self.token = token
    self.port = LockedPort()
    self.name = name
    self.addressLabel = addressLabel
    self.program = program
  }

  /// The server listens on `port` now: requests may pass.
  package func listening(on port: UInt16) { self.port.set(port) }

  /// `http://127.0.0.1:PORT`: the page's origin, and the only one a WebSocket may come from.
  var origin: String? { port.value.map { "http://127.0.0.1:\($0)" } }

  /// Why `request` is refused, or nil when it may go on.
  func refusal(of request: LoopbackHTTPRequest) -> String? {
    guard let port = port.value else { return "the \(name) is not listening yet" }
    guard token.matches(request.query["token"]) else {
      return "this page needs the token \(program) printed with its address (\(addressLabel): http://127.0.0.1:…/?token=…)"
    }
    guard request.header("Host") == "127.0.0.1:\(port)" else { return "the \(name) answers only as 127.0.0.1:\(port)" }
    return nil
  }

  /// Why a WebSocket request is refused (cross-origin, or no origin), or nil.
  func refusal(ofWebSocket request: LoopbackHTTPRequest) -> String? {
    if let refusal = refusal(of: request) { return refusal }
    guard let origin, request.header("Origin") == origin else {
      return "a WebSocket is accepted only from the \(name)'s own page (Origin: \(origin ?? "?"))"
    }
    return nil
  }

  /// 403, with the reason as text.
  package static func forbidden(_ reason: String) -> LoopbackHTTPResponse {
    .text(403, reason)
  }
}

/// The listening port, set once from the task that started the server, read by every request.
private final class LockedPort: @unchecked Sendable {  // `port` is under `lock`
  private let lock = NSLock()
  private var port: UInt16?

  var value: UInt16? { lock.withLock { port } }
  func set(_ port: UInt16) { lock.withLock { self.port = port } }
}
