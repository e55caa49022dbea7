import FlyingFox

/// One page's WebSocket: the hub's messages for it (history, then live entries). What the page
/// sends is read and dropped: in this version it only listens.
struct InspectorSocket: WSMessageHandler {
  let hub: InspectorHub

  func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
    // Drained, so that nothing the page sends piles up; it ends with the connection.
    Task { for await _ in client {} }
    let messages = hub.subscribe()
    return AsyncStream { continuation in
      let forwarding = Task {
        for await message in messages { continuation.yield(.text(message)) }
        continuation.finish()
      }
      // The connection gone (its frames' task cancelled): stop forwarding, and the hub's
      // subscription ends with `messages`' consumer.
      continuation.onTermination = { _ in forwarding.cancel() }
    }
  }
}
