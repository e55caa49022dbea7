import FlyingFox

/// One page's WebSocket: the hub's messages for it (history, then live entries), and the answers
/// to its requests, each carried out on the main actor in the order the page sent them.
struct InspectorSocket: WSMessageHandler {
  let hub: InspectorHub
  let control: InspectorControl?

  func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
    let (messages, reply) = hub.subscribe()
    let control = self.control
    // Read until the connection ends (so that nothing the page sends piles up); without a
    // session to drive (none attached), each request is answered with a refusal.
    Task {
      for await message in client {
        guard case .text(let text) = message else { continue }
        if let control {
          reply(await control.answer(text))
        } else {
          reply(InspectorMessage.result(request: nil, error: "this inspector only shows: no store is attached to it"))
        }
      }
    }
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
