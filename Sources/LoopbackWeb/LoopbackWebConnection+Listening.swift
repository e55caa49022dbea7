import LoopbackListener
import WebSocket

/// Why a loopback server could not start, in a sentence: `cannot start the app on
/// 127.0.0.1:8080: Address already in use` (the server named as its ``LoopbackAccess`` names it).
package struct LoopbackWebStartFailure: Error, CustomStringConvertible {
  package var description: String
}

extension LoopbackWebConnection {
  /// Starts `listener` on 127.0.0.1:`port` (0: a free port the system picks), each client served
  /// by this connection on a thread of its own; a client past `limits.maxConnections` gets a 503
  /// and is counted in `stats`. Returns the port bound, which `access` then takes as its own
  /// (the `Host` a request must name).
  package func listen(with listener: LoopbackListener, port: UInt16) throws(LoopbackWebStartFailure) -> UInt16 {
    let stats = self.stats
    let bound: UInt16
    do {
      bound = try listener.start(
        port: port, maxConnections: limits.maxConnections,
        refuse: { client in
          stats.refusedOne()
          _ = SocketIO.writeWithoutWaiting(client, LoopbackHTTPResponse.text(503, "too many connections").encoded)
        },
        serve: { client in serve(client) })
    } catch {
      throw LoopbackWebStartFailure(description: "cannot start the \(access.name) on 127.0.0.1:\(port): \(error.reason)")
    }
    access.listening(on: bound)
    return bound
  }
}
