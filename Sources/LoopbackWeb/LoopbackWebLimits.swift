import Foundation

/// What a page (or anything else that reaches the port) may cost the host: a loopback server
/// holds at most `maxConnections` threads, a head of `maxHead` bytes and a message of
/// `maxMessage`, and waits on no one longer than its timeouts. `standard` is what the inspector
/// (`relua repl --inspect`, `StoreInspector`) and `relua app` use; tests shorten the timeouts.
package struct LoopbackWebLimits: Sendable {
  /// Connections served at once; one more is answered 503 and closed.
  package var maxConnections = 32
  /// A request's head (request line and headers); a longer one is answered 431.
  package var maxHead = 16 << 10
  /// The whole head must come within this of the connection's opening (a silent client, or one
  /// sending a byte now and then, is dropped).
  package var headTimeout: Duration = .seconds(10)
  /// A page's WebSocket frame, once begun, must come whole within this (a fragment within this of
  /// the one before); between messages a page may be silent as long as it likes.
  package var frameTimeout: Duration = .seconds(10)
  /// A write the page does not take within this many seconds ends its connection (a page that
  /// stops reading must not hold its messages, or a thread, forever).
  package var sendTimeout: Double = 30
  /// A page's message, whole or in fragments, refused by its declared length past this (1009).
  /// (1 MiB: the inspector's `InspectorRequest.maximumLength`; a message is typed by a person.)
  package var maxMessage = 1 << 20

  package init() {}

  package static let standard = LoopbackWebLimits()
}
