import Foundation

/// The pages' messages: each page that connects gets the whole set of screens as it is now, then
/// every change after it, none missed or twice (both under one lock); a page's answers go into
/// its own stream in their place.
package final class WebAppFeed: @unchecked Sendable {  // all under `lock`
  private let lock = NSLock()
  private var snapshot = #"{"screens":[],"type":"screens"}"#
  private var clients: [Int: AsyncStream<String>.Continuation] = [:]
  private var nextClientID = 0

  package init() {}

  /// A new page's messages, and the way to answer it.
  package func subscribe() -> (messages: AsyncStream<String>, reply: @Sendable (String) -> Void) {
    let (stream, continuation) = AsyncStream<String>.makeStream()
    let id = lock.withLock {
      let id = nextClientID
      nextClientID += 1
      continuation.yield(snapshot)
      clients[id] = continuation
      return id
    }
    continuation.onTermination = { [weak self] _ in
      guard let self else { return }
      self.lock.withLock { _ = self.clients.removeValue(forKey: id) }
    }
    return (stream, { [lock] message in lock.withLock { _ = continuation.yield(message) } })
  }

  /// The screens are now `snapshot` (what a page connecting later gets); `changes` tell the pages
  /// connected how to get there.
  package func update(snapshot: String, changes: [String]) {
    lock.withLock {
      self.snapshot = snapshot
      for client in clients.values { for change in changes { client.yield(change) } }
    }
  }

  /// How many pages are connected.
  package var clientCount: Int { lock.withLock { clients.count } }

  /// Ends every page's stream.
  package func close() {
    // (Finished outside the lock: a stream's onTermination takes it.)
    let ending = lock.withLock {
      defer { clients.removeAll() }
      return Array(clients.values)
    }
    for client in ending { client.finish() }
  }
}
