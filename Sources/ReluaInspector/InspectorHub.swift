import Foundation
import Relua

/// The inspector's memory and fan-out: it takes the REPL's events in order, keeps the log and the
/// latest state, and gives each page that connects the history and then every new entry.
///
/// Events come from the main actor (`record` returns at once); their JSON is made on a serial
/// queue of the hub's own, so a large state is encoded off the REPL's thread and in order. A
/// page subscribes on that queue too, so it gets the history up to some entry and every entry
/// after it, none twice or missed. The state is encoded only while a page is connected.
package final class InspectorHub: @unchecked Sendable {  // its mutable state is under `queue`
  /// Entries kept for pages that connect later (a timer ticking for hours must not grow the
  /// REPL without bound); older ones are dropped and counted.
  package static let keptEntries = 10_000

  private let queue = DispatchQueue(label: "relua.inspector.hub")
  private var feature: Value = .null
  private var entries: [Value] = []
  private var dropped = 0
  private var state: Value = .null
  private var clients: [Int: AsyncStream<String>.Continuation] = [:]
  private var nextClientID = 0

  package init() {}

  /// Takes in something the REPL's store went through.
  package func record(_ event: ConsoleEvent) {
    queue.async { self.take(event) }
  }

  /// A page's messages: the history first, then each entry as it happens. The stream ends when
  /// the hub is closed; the subscription ends when its consumer stops (a page gone).
  package func subscribe() -> AsyncStream<String> {
    let (stream, continuation) = AsyncStream<String>.makeStream()
    let id = queue.sync {
      let id = nextClientID
      nextClientID += 1
      continuation.yield(historyMessage())
      clients[id] = continuation
      return id
    }
    continuation.onTermination = { [weak self] _ in
      guard let self else { return }
      self.queue.async { self.clients[id] = nil }
    }
    return stream
  }

  /// How many pages are connected.
  package var clientCount: Int { queue.sync { clients.count } }

  /// Ends every page's stream.
  package func close() {
    queue.sync {
      for client in clients.values { client.finish() }
      clients.removeAll()
    }
  }

  // MARK: On the queue

  private func take(_ event: ConsoleEvent) {
    state = event.state
    if case .opened(let name, let file) = event.kind {
      // A new store: the log starts over, and every page with it.
      feature = ["name": .string(name), "file": .string(file)]
      entries.removeAll()
      dropped = 0
      broadcast(historyMessage())
      return
    }
    let entry = InspectorMessage.entry(event, index: dropped + entries.count + 1)
    entries.append(entry)
    if entries.count > Self.keptEntries {
      dropped += entries.count - Self.keptEntries
      entries.removeFirst(entries.count - Self.keptEntries)
    }
    guard !clients.isEmpty else { return }
    broadcast(InspectorMessage.update(entry: entry, state: state))
  }

  private func historyMessage() -> String {
    InspectorMessage.history(feature: feature, entries: entries, dropped: dropped, state: state)
  }

  private func broadcast(_ message: String) {
    for client in clients.values { client.yield(message) }
  }
}
