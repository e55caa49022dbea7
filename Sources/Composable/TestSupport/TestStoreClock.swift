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
  /// A moment on the clock: how far it is from the clock's start.
  public struct Instant: InstantProtocol, Hashable, Sendable {
    /// The time since the clock's start.
    public var offset: Duration
    /// The moment `offset` after the start.
    public init(offset: Duration = .zero) { self.offset = offset }
    /// The moment `duration` later.
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    /// The time from this moment to `other`.
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    /// Earlier moments first.
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  /// A sleep waiting in the heap: what wakes it, and the effect whose sleep it is.
  fileprivate struct Sleeper {
    var deadline: Instant
    var id: Int
    var waker: Waker
    var activity: EffectActivity?
  }

  /// How a sleep ends: a suspended task resumes, a callback runs, or a driven effect's host is
  /// told (no closure: the host's object per effect is the waker).
  fileprivate enum Waker {
    /// Its continuation is in `continuations` (a task's sleep is cancelled by id, from anywhere).
    case task
    case callback(@MainActor () -> Void)
    case sleeper(any TestClockSleeper)
  }

  /// A sleep scheduled with `schedule(until:waking:)`, for `cancel(_:)`.
  public struct Sleep: Sendable {
    /// The id its sleeper is told when it wakes.
    public let id: Int
    let activity: EffectActivity?
  }

  private let lock = NSLock()
  private var current: Instant
  /// The sleeps registered, in their order of waking (earliest deadline, then id) as a heap: an
  /// advance over 10,000 sleeping effects wakes each in O(log n). `pending` holds the ids of those
  /// not woken or cancelled: a cancelled sleep leaves it at once and the heap when it reaches the
  /// top (or when cancelled ones are half the heap). One heap entry and one id per sleep.
  private var order = SleepOrder()
  private var pending: Set<Int> = []
  /// The continuations of tasks' sleeps.
  private var continuations: [Int: CheckedContinuation<Void, any Error>] = [:]
  private var nextID = 0

  /// A clock standing at `now` until a test advances it.
  public init(now: Instant = Instant()) { current = now }

  /// Where the clock stands.
  public var now: Instant { lock.withLock { current } }
  /// Zero: the clock moves only when the test advances it.
  public var minimumResolution: Duration { .zero }

  /// Suspends until an advance reaches `deadline` (`sleep(until:isolation:)` without an actor;
  /// `tolerance` is ignored).
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
          continuations[id] = continuation
          push(Sleeper(deadline: deadline, id: id, waker: .task, activity: activity))
          return .asleep
        }
        switch outcome {
        case .asleep: activity?.announce(isolation: isolation)
        case .due: continuation.resume()
        case .cancelled: continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      let continuation = lock.withLock {
        cancelSleep(id, of: activity) ? continuations.removeValue(forKey: id) : nil
      }
      continuation?.resume(throwing: CancellationError())
    }
  }

  /// A sleep without a task, for an effect its host drives by callbacks (`Effect.driven`): takes
  /// its place in the order of sleeps now, counts as a sleep of the effect running now (see
  /// `DrivenEffect.step`), and calls `wake` when an advance reaches `deadline` (at once when it
  /// has passed). Returns what cancels the sleep; `wake` is not called after it.
  @MainActor
  public func schedule(until deadline: Instant, _ wake: @escaping @MainActor () -> Void) -> @MainActor () -> Void {
    guard let sleep = register(until: deadline, waker: .callback(wake)) else {
      wake()
      return {}
    }
    return { [self] in cancel(sleep) }
  }

  /// `schedule` for a host that keeps an object per effect: the clock tells `sleeper` (with the
  /// sleep's id) instead of calling a closure, so a sleep costs the clock one heap entry and one
  /// id. Returns the sleep (for `cancel(_:)`), or nil when `deadline` has passed: nothing is
  /// scheduled and the sleeper is not told.
  @MainActor
  public func schedule(until deadline: Instant, waking sleeper: any TestClockSleeper) -> Sleep? {
    register(until: deadline, waker: .sleeper(sleeper))
  }

  /// Cancels a sleep `schedule` made; its waker is not called after this (nothing happens when it
  /// was woken already).
  @MainActor
  public func cancel(_ sleep: Sleep) {
    _ = lock.withLock { cancelSleep(sleep.id, of: sleep.activity) }
  }

  /// Registers a sleep of the effect running now (nil when `deadline` has passed).
  @MainActor
  private func register(until deadline: Instant, waker: Waker) -> Sleep? {
    let activity = EffectActivity.current
    let id: Int? = lock.withLock {
      defer { nextID += 1 }
      if deadline < current { return nil }
      push(Sleeper(deadline: deadline, id: nextID, waker: waker, activity: activity))
      return nextID
    }
    guard let id else { return nil }
    activity?.announce(isolation: MainActor.shared)
    return Sleep(id: id, activity: activity)
  }

  /// Under `lock`: a sleep takes its place, counted as its effect's.
  private func push(_ sleeper: Sleeper) {
    pending.insert(sleeper.id)
    sleeper.activity?.fellAsleep()
    order.push(sleeper)
  }

  /// Under `lock`: takes a pending sleep of `activity` out (its heap entry stays until it reaches
  /// the top, or until cancelled entries are half the heap); whether it was pending.
  private func cancelSleep(_ id: Int, of activity: EffectActivity?) -> Bool {
    guard pending.remove(id) != nil else { return false }
    activity?.wokeUp()
    if order.count > 64 && order.count > 2 * pending.count { order.removeAll(whereID: { !pending.contains($0) }) }
    return true
  }

  /// Ends a sleep an advance reached (outside `lock`).
  @MainActor
  private func wake(_ sleeper: Sleeper) {
    switch sleeper.waker {
    case .task: lock.withLock { continuations.removeValue(forKey: sleeper.id) }?.resume()
    case let .callback(wake): wake()
    case let .sleeper(object): object.clockDidWake(sleep: sleeper.id)
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
    if let sleeper { wake(sleeper) }
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
    for sleeper in due { wake(sleeper) }
  }

  /// The first sleep in waking order due by `limit` (any, without one), taken out. Under `lock`.
  /// Ties by `id`: the order the sleeps began, taken before the sleep suspends (registering may
  /// come later, after a hop off the caller's actor).
  private func popFirst(notAfter limit: Instant?) -> Sleeper? {
    while let id = order.firstID, let deadline = order.firstDeadline {
      // A cancelled sleep is no longer pending: dropped here, whatever its deadline. (Checked
      // after the limit: a due sleep's id is hashed once, to take it out.)
      if let limit, limit < deadline, pending.contains(id) { return nil }
      let first = pending.remove(id) != nil ? order.first : nil
      order.removeFirst()
      if let first { return first }
    }
    return nil
  }
}

/// What a `TestStoreClock` wakes when a sleep scheduled with `schedule(until:waking:)` is due:
/// an object the host keeps per effect anyway (a Lua effect's run), told which sleep ended.
@MainActor
public protocol TestClockSleeper: AnyObject {
  /// Called when the sleep `id` (`Sleep.id`) is due, on the main actor.
  func clockDidWake(sleep id: Int)
}

/// A binary min-heap of sleeps, by deadline and then id: the order sleeps wake in. What it orders
/// by (plain values) is apart from what each sleep wakes (references), so a sift compares and
/// moves without retaining anything (with whole entries, a tenth of an advance over 10,000
/// sleeps went to retains and releases).
private struct SleepOrder {
  private struct Key {
    var deadline: TestStoreClock.Instant
    var id: Int
    static func < (a: Key, b: Key) -> Bool { (a.deadline, a.id) < (b.deadline, b.id) }
  }

  private var keys: [Key] = []
  /// `keys[i]`'s waker and activity (its deadline and id are the key's).
  private var wakers: [(waker: TestStoreClock.Waker, activity: EffectActivity?)] = []

  var first: TestStoreClock.Sleeper? {
    guard let key = keys.first else { return nil }
    return TestStoreClock.Sleeper(deadline: key.deadline, id: key.id, waker: wakers[0].waker, activity: wakers[0].activity)
  }
  var firstDeadline: TestStoreClock.Instant? { keys.first?.deadline }
  var firstID: Int? { keys.first?.id }
  var count: Int { keys.count }

  mutating func push(_ sleeper: TestStoreClock.Sleeper) {
    keys.append(Key(deadline: sleeper.deadline, id: sleeper.id))
    wakers.append((sleeper.waker, sleeper.activity))
    siftUp(keys.count - 1)
  }

  mutating func removeFirst() {
    swap(0, keys.count - 1)
    keys.removeLast()
    wakers.removeLast()
    siftDown(0)
  }

  /// Drops the entries whose ids `shouldRemove` names and restores the heap order.
  mutating func removeAll(whereID shouldRemove: (Int) -> Bool) {
    var kept = 0
    for index in keys.indices where !shouldRemove(keys[index].id) {
      swap(kept, index)
      kept += 1
    }
    keys.removeLast(keys.count - kept)
    wakers.removeLast(wakers.count - kept)
    for index in stride(from: keys.count / 2, through: 0, by: -1) { siftDown(index) }
  }

  private mutating func swap(_ a: Int, _ b: Int) {
    guard a != b else { return }
    keys.swapAt(a, b)
    // `swap` moves (`swapAt` copies the entries: a retain and a release each).
    wakers.withUnsafeMutableBufferPointer { Swift.swap(&$0[a], &$0[b]) }
  }

  private mutating func siftUp(_ index: Int) {
    var child = index
    while child > 0 {
      let parent = (child - 1) / 2
      guard keys[child] < keys[parent] else { break }
      swap(child, parent)
      child = parent
    }
  }

  private mutating func siftDown(_ index: Int) {
    var parent = index
    while true {
      let left = 2 * parent + 1, right = left + 1
      var smallest = parent
      if left < keys.count && keys[left] < keys[smallest] { smallest = left }
      if right < keys.count && keys[right] < keys[smallest] { smallest = right }
      guard smallest != parent else { return }
      swap(parent, smallest)
      parent = smallest
    }
  }
}
