import Foundation

/// A test clock that knows which effects sleep on it, so `TestStore.advance(_:by:)` can move time
/// exactly. Time only moves through the test store; a sleep lasts until an advance reaches its
/// deadline (a sleep until `now` waits for the next advance, as with swift-clocks' `TestClock`).
///
/// swift-clocks' `TestClock` cannot tell whether an effect has reached its sleep yet: advanced
/// right after a send, it can move past a sleep that registers a moment later, which then never
/// ends. This one marks each sleep on the sleeping effect (`EffectActivity`), so the test store
/// waits for every effect to be asleep before each step.
public final class TestStoreClock: Clock, @unchecked Sendable {
  public struct Instant: InstantProtocol, Hashable, Sendable {
    public var offset: Duration
    public init(offset: Duration = .zero) { self.offset = offset }
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    var id: Int
    var deadline: Instant
    var waker: Waker
    var activity: EffectActivity?
  }

  /// How a sleep ends: a suspended task resumes, or a driven effect's callback runs.
  private enum Waker {
    case task(CheckedContinuation<Void, any Error>)
    case callback(@MainActor () -> Void)

    @MainActor
    func wake() {
      switch self {
      case let .task(continuation): continuation.resume()
      case let .callback(wake): wake()
      }
    }

    func cancel() {
      if case let .task(continuation) = self { continuation.resume(throwing: CancellationError()) }
    }
  }

  private let lock = NSLock()
  private var current: Instant
  /// The sleeps registered, by id, and their order of waking (earliest deadline, then id) as a
  /// heap: an advance over 10,000 sleeping effects wakes each in O(log n). A cancelled sleep
  /// leaves the dictionary at once and the heap when it reaches the top.
  private var sleepers: [Int: Sleeper] = [:]
  private var order = SleepOrder()
  private var nextID = 0

  public init(now: Instant = Instant()) { current = now }

  public var now: Instant { lock.withLock { current } }
  public var minimumResolution: Duration { .zero }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await sleep(until: deadline, isolation: nil)
  }

  /// `sleep(until:)` on the caller's actor: the sleep takes its place in the order of sleeps
  /// (its `id`) before the caller suspends, so sleeps that effects on the main actor begin in
  /// order wake in that order at equal deadlines (the `Clock` requirement runs on the generic
  /// executor, where two effects' sleeps race: two sleeps due at the same instant then woke in
  /// either order, one run in a few hundred).
  public func sleep(until deadline: Instant, isolation: isolated (any Actor)?) async throws {
    try Task.checkCancellation()
    let activity = EffectActivity.current
    let id = lock.withLock {
      defer { nextID += 1 }
      return nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        enum Outcome { case asleep, due, cancelled }
        // Checked and registered in one step: a cancellation either sees the sleeper or is seen here.
        let outcome: Outcome = lock.withLock {
          if Task.isCancelled { return .cancelled }
          if deadline < current { return .due }
          sleepers[id] = Sleeper(id: id, deadline: deadline, waker: .task(continuation), activity: activity)
          order.push(deadline, id)
          activity?.fellAsleep()
          return .asleep
        }
        switch outcome {
        case .asleep: activity?.announce(isolation: isolation)
        case .due: continuation.resume()
        case .cancelled: continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      let sleeper: Sleeper? = lock.withLock {
        guard let sleeper = sleepers.removeValue(forKey: id) else { return nil }
        sleeper.activity?.wokeUp()
        return sleeper
      }
      sleeper?.waker.cancel()
    }
  }

  /// A sleep without a task, for an effect its host drives by callbacks (`Effect.driven`): takes
  /// its place in the order of sleeps now, counts as a sleep of the effect running now (see
  /// `DrivenEffect.step`), and calls `wake` when an advance reaches `deadline` (at once when it
  /// has passed). Returns what cancels the sleep; `wake` is not called after it.
  @MainActor
  public func schedule(until deadline: Instant, _ wake: @escaping @MainActor () -> Void) -> @MainActor () -> Void {
    let activity = EffectActivity.current
    let id: Int? = lock.withLock {
      defer { nextID += 1 }
      if deadline < current { return nil }
      sleepers[nextID] = Sleeper(id: nextID, deadline: deadline, waker: .callback(wake), activity: activity)
      order.push(deadline, nextID)
      activity?.fellAsleep()
      return nextID
    }
    guard let id else {
      wake()
      return {}
    }
    activity?.announce(isolation: MainActor.shared)
    return { [self] in
      lock.withLock {
        if sleepers.removeValue(forKey: id) != nil { activity?.wokeUp() }
      }
    }
  }

  /// Wakes the one sleep due first by `limit` — the earliest deadline, and of sleeps due at the
  /// same instant the one that began first, as TCA's test clock orders them — moving `now` to its
  /// deadline (without a limit: however far ahead). False when none is due. The test store wakes sleeps one at a time and lets the
  /// woken effect run to its next sleep (or its end) before the next: two timers due at the same
  /// instant then deliver in the order they went to sleep, every time (woken together, their
  /// order was the scheduler's).
  @MainActor
  func wakeNext(notAfter limit: Instant? = nil) -> Bool {
    let sleeper: Sleeper? = lock.withLock {
      guard let sleeper = popFirst(notAfter: limit) else { return nil }
      if current < sleeper.deadline { current = sleeper.deadline }
      sleeper.activity?.wokeUp()
      return sleeper
    }
    sleeper?.waker.wake()
    return sleeper != nil
  }

  /// Moves `now` to `instant` (never back) and wakes the sleeps due by then, in their order.
  /// Their effects count as awake before this returns.
  @MainActor
  func move(to instant: Instant) {
    let due: [Sleeper] = lock.withLock {
      if current < instant { current = instant }
      var due: [Sleeper] = []
      while let sleeper = popFirst(notAfter: current) { due.append(sleeper) }
      for sleeper in due { sleeper.activity?.wokeUp() }
      return due
    }
    for sleeper in due { sleeper.waker.wake() }
  }

  /// The first sleep in waking order due by `limit` (any, without one), taken out. Under `lock`.
  /// Ties by `id`: the order the sleeps began, taken before the sleep suspends (registering may
  /// come later, after a hop off the caller's actor).
  private func popFirst(notAfter limit: Instant?) -> Sleeper? {
    while let (deadline, id) = order.first {
      // A cancelled sleep is no longer in `sleepers`: dropped here, whatever its deadline.
      if let limit, limit < deadline, sleepers[id] != nil { return nil }
      order.removeFirst()
      if let sleeper = sleepers.removeValue(forKey: id) { return sleeper }
    }
    return nil
  }
}

/// A binary min-heap of (deadline, id): the order sleeps wake in.
private struct SleepOrder {
  private var heap: [(deadline: TestStoreClock.Instant, id: Int)] = []

  var first: (TestStoreClock.Instant, Int)? { heap.first.map { ($0.deadline, $0.id) } }

  private func less(_ a: Int, _ b: Int) -> Bool {
    (heap[a].deadline, heap[a].id) < (heap[b].deadline, heap[b].id)
  }

  mutating func push(_ deadline: TestStoreClock.Instant, _ id: Int) {
    heap.append((deadline, id))
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard less(child, parent) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  mutating func removeFirst() {
    heap.swapAt(0, heap.count - 1)
    heap.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1, right = left + 1
      var smallest = parent
      if left < heap.count && less(left, smallest) { smallest = left }
      if right < heap.count && less(right, smallest) { smallest = right }
      guard smallest != parent else { return }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
