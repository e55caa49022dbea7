import Composable

/// Named notifications within one store (`deps.notifications(name)` in Lua, `store:post(name,
/// value)` to post): what a notification center is to an app — a screenshot taken, a setting
/// changed — given by the store's owner: a test, the REPL, an embedding program.
///
/// Each `deps.notifications(name)` loop is a subscriber from its first element on; a post reaches
/// every subscriber of its name (in order), and one busy with an element gets the next ones in
/// turn. A subscriber waiting for a post is parked (`ParkedEffect`): only the owner can post, so a
/// test store does not wait for it.
@MainActor
package final class StoreNotifications: @unchecked Sendable {  // used on the main actor only
  private final class Subscriber {
    let name: String
    var buffer: [Value] = []
    var waiting: (continuation: CheckedContinuation<Value?, Never>, parked: ParkedEffect)?
    var cancelled = false
    init(name: String) { self.name = name }
  }

  private var subscribers: [ObjectIdentifier: Subscriber] = [:]
  private var order: [ObjectIdentifier] = []

  package init() {}

  /// Posts `value` to every subscriber of `name`; returns how many there were.
  @discardableResult
  package func post(_ name: String, _ value: Value = .null) -> Int {
    let reached = subscribers(of: name)
    for subscriber in reached { deliver(value, to: subscriber) }
    return reached.count
  }

  /// `post`, one subscriber at a time, in the order they subscribed: after handing the value to
  /// one that was waiting, `settle` runs (a test store waits there until the effect has dealt
  /// with it). Resumed together, effects ran in the executor's order, not the subscribers'.
  package func post(_ name: String, _ value: Value = .null, settlingEach settle: @MainActor () async -> Void) async -> Int {
    let reached = subscribers(of: name)
    for subscriber in reached where !subscriber.cancelled {
      if deliver(value, to: subscriber) { await settle() }
    }
    return reached.count
  }

  private func subscribers(of name: String) -> [Subscriber] {
    order.compactMap { subscribers[$0] }.filter { $0.name == name }
  }

  /// Resumes the subscriber with `value` (true), or buffers it for its next ask.
  @discardableResult
  private func deliver(_ value: Value, to subscriber: Subscriber) -> Bool {
    guard let waiting = subscriber.waiting else {
      subscriber.buffer.append(value)
      return false
    }
    subscriber.waiting = nil
    waiting.parked.unpark()
    waiting.continuation.resume(returning: value)
    return true
  }

  /// A subscription to `name`: `next` gives each posted value in turn (nil once cancelled);
  /// `cancel` ends it.
  func subscribe(_ name: String) -> (next: @MainActor () async -> Value?, cancel: @MainActor () -> Void) {
    let subscriber = Subscriber(name: name)
    let key = ObjectIdentifier(subscriber)
    subscribers[key] = subscriber
    order.append(key)
    let cancel: @MainActor () -> Void = { [weak self] in
      subscriber.cancelled = true
      self?.subscribers[key] = nil
      self?.order.removeAll { $0 == key }
      if let waiting = subscriber.waiting {
        subscriber.waiting = nil
        waiting.parked.unpark()
        waiting.continuation.resume(returning: nil)
      }
    }
    let next: @MainActor () async -> Value? = {
      if subscriber.cancelled { return nil }
      if !subscriber.buffer.isEmpty { return subscriber.buffer.removeFirst() }
      return await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          let parked = ParkedEffect.current
          parked.park()
          subscriber.waiting = (continuation, parked)
        }
      } onCancel: {
        Task { @MainActor in cancel() }
      }
    }
    return (next, cancel)
  }
}

private enum StoreNotificationsKey: DependencyKey {
  // Stores set their own (`withOwnNotifications`); one read without it reaches nobody.
  static var liveValue: StoreNotifications { MainActor.assumeIsolated { StoreNotifications() } }
  static var testValue: StoreNotifications? { liveValue }
  static var name: String { "notifications" }
}

extension DependencyValues {
  /// Gives a store notifications of its own.
  @MainActor
  mutating func withOwnNotifications() {
    if !isSet(StoreNotificationsKey.self) { notifications = StoreNotifications() }
  }

  /// The store's notifications (each store gets its own; see `StoreNotifications`).
  package var notifications: StoreNotifications {
    get { self[StoreNotificationsKey.self] }
    set { self[StoreNotificationsKey.self] = newValue }
  }
}
