import Composable
import Foundation
import Relua

/// The inspector's memory and fan-out: it takes the store's events in order, keeps the log with
/// the state after each entry (for a page to look at or jump to), the latest screens and
/// effects, and gives each page that connects the history and then every new entry.
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
  /// The state after each kept entry (`entries`' order): values share what they did not change.
  private var states: [Value] = []
  private var dropped = 0
  private var state: Value = .null
  private var live = InspectionLive()
  private var clients: [Int: AsyncStream<String>.Continuation] = [:]
  private var nextClientID = 0
  /// The ids of the effects the pages were last told of (by an entry or `effectsChanged`), set
  /// as they are told, not when the queue gets to them: the effects' watcher compares with it.
  private let told = NSLock()
  private var toldEffectIDs: [Int] = []

  package var effectIDsTold: [Int] { told.withLock { toldEffectIDs } }

  package init() {}

  /// Takes in something the REPL's store went through.
  package func record(_ event: ConsoleEvent) {
    if let live = event.live { told.withLock { toldEffectIDs = live.effects.map(\.id) } }
    queue.async { self.take(event) }
  }

  /// A page's messages: the history first, then each entry as it happens, and the answers to
  /// its own requests in their place (`reply`). The stream ends when the hub is closed; the
  /// subscription ends when its consumer stops (a page gone).
  package func subscribe() -> (messages: AsyncStream<String>, reply: @Sendable (String) -> Void) {
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
    // On the queue, so that an answer comes after the entries its request led to.
    let reply: @Sendable (String) -> Void = { [queue] message in queue.async { continuation.yield(message) } }
    return (stream, reply)
  }

  /// The state after entry `index` (counted from 1), nil when it is not kept (dropped, or not yet).
  package func state(after index: Int) -> Value? {
    queue.sync {
      // A page's number, any Int: compared before it is used in arithmetic (no overflow trap).
      // (Not `nil` in a conditional: `Value` is a nil literal itself.)
      guard index > dropped, index - dropped <= states.count else { return Optional<Value>.none }
      return states[index - dropped - 1]
    }
  }

  /// The effects in flight changed without an entry (one ended): the pages redraw them.
  package func effectsChanged(_ effects: [RunningEffect]) {
    told.withLock { toldEffectIDs = effects.map(\.id) }
    queue.async {
      guard effects != self.live.effects else { return }
      self.live.effects = effects
      guard !self.clients.isEmpty else { return }
      self.broadcast(InspectorMessage.liveUpdate(InspectorMessage.live(self.live)))
    }
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
    if let live = event.live { self.live = live }
    if event.kind == .liveChanged {
      if !clients.isEmpty { broadcast(InspectorMessage.liveUpdate(InspectorMessage.live(live))) }
      return
    }
    if case .opened(let name, let file) = event.kind {
      // A new store: the log starts over, and every page with it.
      feature = ["name": .string(name), "file": .string(file)]
      entries.removeAll()
      states.removeAll()
      dropped = 0
      broadcast(historyMessage())
      return
    }
    let entry = InspectorMessage.entry(event, index: dropped + entries.count + 1)
    entries.append(entry)
    states.append(event.state)
    if entries.count > Self.keptEntries {
      let excess = entries.count - Self.keptEntries
      dropped += excess
      entries.removeFirst(excess)
      states.removeFirst(excess)
    }
    guard !clients.isEmpty else { return }
    broadcast(InspectorMessage.update(entry: entry, state: state, live: InspectorMessage.live(live)))
  }

  private func historyMessage() -> String {
    InspectorMessage.history(feature: feature, entries: entries, dropped: dropped, state: state, live: InspectorMessage.live(live))
  }

  private func broadcast(_ message: String) {
    for client in clients.values { client.yield(message) }
  }
}
