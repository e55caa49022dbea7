/// The engine behind a root `Store`: holds the state, runs the send loop, interprets effects and tracks
/// the effects in flight.
@MainActor
@usableFromInline
final class StoreRoot<State, Action> {
  // `@exclusivity(unchecked)` on the fields the send loop touches: the root is main-actor isolated (one
  // thread), and no access to one of them can overlap another: the reducer gets `state` inout, and
  // nothing else reaches `state` during that call (a send from inside a reducer only appends to
  // `buffer`; `Store.state` reads are instantaneous and never happen inside a reducer's inout access
  // since reducers do not see the store); `buffer`/`pending` are modified only by Array methods that
  // run no user code; `transactional`, `didReduce`, `observers` and `failure` are only read or
  // assigned (instantaneous accesses, which cannot overlap anything). Dynamic checks on these class
  // fields cost about 30 ns per access pair (measured: swift.send 128 → 55 ns with the first six).
  @exclusivity(unchecked) @usableFromInline var state: State
  @usableFromInline let reducer: (inout State, Action) -> Effect<Action>
  @usableFromInline let context: ReduceContext

  // Send loop.
  @exclusivity(unchecked) @usableFromInline var buffer: [Action] = []
  @exclusivity(unchecked) @usableFromInline var isSending = false
  @exclusivity(unchecked) @usableFromInline var isReducing = false
  @exclusivity(unchecked) @usableFromInline var pending: [Effect<Action>] = []
  @exclusivity(unchecked) @usableFromInline var failure: ReducerFailure?
  @exclusivity(unchecked) @usableFromInline var transactional: Bool
  /// How a transactional send restores the state: a host's own undo (see `StoreTransaction`), else
  /// a snapshot taken before the send.
  @usableFromInline let transaction: StoreTransaction<State>?
  /// The state before a transactional send of a store without `transaction` (a field, not a
  /// local: a local optional state is destroyed on every send, taken or not).
  @exclusivity(unchecked) @usableFromInline var snapshot: State?
  @exclusivity(unchecked) @usableFromInline var lastFailure: ReducerFailure?
  /// How much work a send may cause (see `SendLimits`).
  var limits = SendLimits.default

  // Observation.
  @exclusivity(unchecked) @usableFromInline var observers: [Int: () -> Void] = [:]
  var nextObserverID = 0

  // Effects in flight.
  var inFlight: [Int: EffectInFlight] = [:]
  /// The effects in flight under each cancel id (at each prefix of its place, see `register`).
  var cancellables: [CancelID: CancelGroup] = [:]
  /// Effect task ids only grow: a send's effects are the ids it took (see `StoreTask`).
  @exclusivity(unchecked) @usableFromInline var nextTaskID = 0
  /// Effect tasks that have not had their first turn, in the order they were made (from
  /// `startQueueHead` on), and those of them waiting for their turn (see `beginInOrder`).
  var startQueue: [Int] = []
  var startQueueHead = 0
  var startWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
  /// Driven effects (`Effect.driven`) not yet started, by id: started in `startDrivenEffects`.
  /// One cancelled before its turn leaves at once (its id is then in neither of these).
  var drivenStarts: [Int: @MainActor () -> Void] = [:]
  /// Tasks that have not had their first turn.
  var tasksToBegin: Set<Int> = []
  var drivenStartsScheduled = false
  /// Effect tasks made and not yet returned, cancelled ones included.
  var liveTasks = 0
  /// Effects in flight that have not had their first turn; run effects started and not asleep;
  /// concatenations in flight (see `allEffectsAsleep`).
  var unstartedEffects = 0
  private(set) lazy var awakeEffects: AwakeEffects = {
    let link = self.link
    return AwakeEffects { onMainActor in
      if onMainActor {
        MainActor.assumeIsolated { link.root?.signalActivity() }
      } else {
        Task { @MainActor in link.root?.signalActivity() }
      }
    }
  }()
  var concatenations: Set<Int> = []
  /// What driven effects send through (each checks its own cancellation, see `DrivenEffect.send`).
  lazy var drivenSend: Send<Action> = {
    let link = self.link
    return Send(deliver: { link.root?.receive($0) }, warning: { link.root?.warn($0) })
  }()
  /// A concatenation's effects of its current step (their task ids), by the concatenation's.
  var concatenationSteps: [Int: [Int]] = [:]
  /// The cancel ids registered last (see `cancelIDs(_:)`).
  private var lastCancelIDs: EffectCancelIDs?

  // Waiting for effects, event-driven: suspended waiters resumed when an effect finishes or one of its
  // actions has been reduced (see `wait(until:timeout:)`).
  private var waiters: [Int: StoreWaiter] = [:]
  private var nextWaiterID = 0
  /// One timer for all waiters' deadlines, due at the earliest (see `armDeadline`).
  private var deadlineTimer: (due: ContinuousClock.Instant, task: Task<Void, Never>)?

  var warnings: [RuntimeWarning] = []
  var onWarning: ((RuntimeWarning) -> Void)?

  /// How effects and waiters reach this root without keeping it alive (see `StoreRootLink`).
  private var linkStorage: StoreRootLink<State, Action>?
  var link: StoreRootLink<State, Action> {
    if let linkStorage { return linkStorage }
    let link = StoreRootLink(self)
    linkStorage = link
    return link
  }

  /// Called after each action is reduced, with whether it came from an effect (TestStore's hook).
  @exclusivity(unchecked) @usableFromInline var didReduce: ((Action, _ received: Bool) -> Void)?
  /// Called when a failed send's state was restored (what `didReduce` saw of it never happened).
  var didRollBack: (() -> Void)?
  /// Called when a host cancels effects (`Store.cancelEffect`: its id; `Store.cancelAllEffects`: nil).
  var didCancelFromHost: ((Int?) -> Void)?

  init(
    initialState: State, reducer: @escaping (inout State, Action) -> Effect<Action>,
    dependencies: DependencyValues, transactional: Bool, transaction: StoreTransaction<State>? = nil
  ) {
    self.state = initialState
    self.reducer = reducer
    self.transactional = transactional || transaction != nil
    self.transaction = transaction
    var warn: ((RuntimeWarning) -> Void)!
    var dependencies = dependencies
    // Each root store counts its own stack element ids (ids never repeat within it).
    if !dependencies.hasStackElementIDGenerator { dependencies.stackElementID = .incrementing() }
    self.context = ReduceContext(dependencies: dependencies, warn: { warn($0) })
    warn = { [unowned self] in self.warn($0) }
    buffer.reserveCapacity(16)
  }

  var dependencies: DependencyValues {
    get { context.dependencies }
    set { context.dependencies = newValue }
  }

  /// Warnings a store keeps (the newest): a feature that fails on every action, forever, must not
  /// grow its store without bound.
  static var maxKeptWarnings: Int { 1_000 }

  func warn(_ warning: RuntimeWarning) {
    if warnings.count >= Self.maxKeptWarnings { warnings.removeFirst(warnings.count - Self.maxKeptWarnings + 1) }
    warnings.append(warning)
    onWarning?(warning)
  }

  func warn(_ message: String) { warn(RuntimeWarning(message)) }

  // MARK: Send loop

  @inlinable
  func send(_ action: Action, received: Bool = false, transactional: Bool = false) {
    if isSending {
      enqueueWhileSending(action)
      return
    }
    run(action, received: received, transactional: transactional || self.transactional)
  }

  /// A transactional send from outside a send (`Store.sendChecked`): the failure that rolled it
  /// back, or nil.
  @inlinable
  func sendTransactionally(_ action: Action) -> ReducerFailure? {
    if lastFailure != nil { lastFailure = nil }
    run(action, received: false, transactional: true)
    guard let failure = lastFailure else { return nil }
    lastFailure = nil
    return failure
  }

  @usableFromInline
  func enqueueWhileSending(_ action: Action) {
    if isReducing {
      warn("An action was sent to the store from inside a reducer; it is queued after the current action: \(describe(action)). Return an effect (.send) instead.")
    }
    buffer.append(action)
  }

  /// Processes `action` and everything it leads to synchronously, first-in first-out.
  @inlinable
  func run(_ action: Action, received: Bool, transactional: Bool) {
    isSending = true
    let previousContext = ReduceContext.install(context)
    if transactional {
      // (`transaction!` borrows it; `if let` would retain and release it.)
      if transaction != nil { transaction!.begin() } else { snapshot = state }
    }

    // The first action is reduced as it was passed (no copy of it); then, off the common path,
    // what it led to.
    isReducing = true
    let first = reducer(&state, action)
    isReducing = false
    if let didReduce { didReduce(action, received) }
    // The common send ends here: no effect and nothing buffered (a send from inside the reducer
    // would be). Then nothing is pending and nothing failed either (both come from effects). The
    // loop is out of line: the common path keeps a smaller frame.
    if !first.isNone || !buffer.isEmpty { runFollowUps(of: first) }
    if failure != nil {
      rollBack(transactional: transactional)
    } else if transactional {
      if transaction != nil { transaction!.end() } else { snapshot = nil }
    }

    ReduceContext.restore(previousContext)
    isSending = false
    if !observers.isEmpty { notifyObservers() }
  }

  /// The rest of a send's loop: collects `first`, then reduces the buffered actions first-in
  /// first-out, collecting their effects, and starts what is pending once the buffer is drained.
  @usableFromInline
  func runFollowUps(of first: Effect<Action>) {
    var effect = first
    var index = 0
    while true {
      if !effect.isNone { collect(effect) }
      if index < buffer.count {
        if index == limits.maxActionsPerSend {
          stopRunaway(reduced: index)
          break
        }
        let next = buffer[index]
        index += 1
        isReducing = true
        effect = reducer(&state, next)
        isReducing = false
        if let didReduce { didReduce(next, true) }
        continue
      }
      if failure == nil && !pending.isEmpty {
        effect = .none
        startPending()
        if index < buffer.count { continue }
      }
      break
    }
    if index > 0 { buffer.removeAll(keepingCapacity: true) }
  }

  /// Sorts an effect: synchronous sends join the buffer now; the rest starts after the loop.
  @usableFromInline
  func collect(_ effect: Effect<Action>) {
    switch effect.operation {
    case .none:
      return
    case let .send(action):
      buffer.append(action)
    case let .merge(effects):
      for effect in effects { collect(effect) }
    case let .concatenate(effects) where effects.allSatisfy(\.isSynchronous):
      for effect in effects { collect(effect) }
    case let .cancellable(inner, id, cancelInFlight) where inner.isSynchronous:
      if cancelInFlight { pending.append(Effect(operation: .cancel(id))) }
      collect(inner)
    case let .failure(failure):
      if self.failure == nil { self.failure = failure }
    default:
      pending.append(effect)
    }
  }

  /// Fails the send: its follow-up actions reached `limits.maxActionsPerSend`.
  @usableFromInline
  func stopRunaway(reduced count: Int) {
    let head = buffer.prefix(3).map { describe($0) }
    let tail = buffer[min(count, max(3, count - 2))..<count].map { describe($0) }
    if failure == nil {
      failure = ReducerFailure(error: RunawaySend(limit: limits.maxActionsPerSend, chain: head + (count > 5 ? ["…"] : []) + tail))
    }
  }

  @usableFromInline
  func startPending() {
    if inFlight.count >= limits.maxEffectsInFlight {
      if failure == nil { failure = ReducerFailure(error: TooManyEffects(limit: limits.maxEffectsInFlight)) }
      pending.removeAll(keepingCapacity: true)
      return
    }
    let effects = pending
    pending.removeAll(keepingCapacity: true)
    for effect in effects { _ = start(effect, ids: []) }
  }

  @usableFromInline
  func rollBack(transactional: Bool) {
    let failure = self.failure!
    self.failure = nil
    lastFailure = failure
    pending.removeAll()
    if transactional, let transaction {
      transaction.rollBack(&state)
      didRollBack?()
      warn("A reducer failed: \(failure). The state was restored to what it was before the send.")
    } else if transactional, let snapshot {
      state = snapshot
      self.snapshot = nil
      didRollBack?()
      warn("A reducer failed: \(failure). The state was restored to what it was before the send.")
    } else {
      warn("A reducer failed: \(failure). This store is not transactional, so the state could not be restored.")
    }
  }

  // MARK: Observation

  @usableFromInline
  func notifyObservers() {
    for observer in observers.values { observer() }
  }

  func addObserver(_ observer: @escaping () -> Void) -> Int {
    let id = nextObserverID
    nextObserverID += 1
    observers[id] = observer
    return id
  }

  func removeObserver(_ id: Int) {
    // The closure is released after the access to `observers` has ended (its captures' deinits may
    // reach this store again; `observers` is not dynamically checked).
    let removed = observers.removeValue(forKey: id)
    withExtendedLifetime(removed) {}
  }

  // MARK: Effects

  /// Delivers an action sent by a running effect.
  func receive(_ action: Action) {
    send(action, received: true)
    signalActivity()
  }

  // MARK: Waiting

  /// Suspends until `condition` holds, re-checking it whenever an effect finishes or delivers an action
  /// (no polling). Gives up after `timeout` (nil: no limit) or when the waiting task is cancelled.
  /// Returns whether `condition` holds.
  @discardableResult
  func wait(until condition: @escaping () -> Bool, timeout: Duration? = nil) async -> Bool {
    if condition() { return true }
    let deadline = timeout.map { ContinuousClock.now + $0 }
    let id = nextWaiterID
    nextWaiterID += 1
    let link = self.link
    while !condition() {
      if let deadline, ContinuousClock.now >= deadline { return false }
      if Task.isCancelled { return false }
      await withTaskCancellationHandler {
        // Checked and registered in one main-actor step: no wake-up can be lost in between.
        await withCheckedContinuation { continuation in
          if condition() || Task.isCancelled {
            continuation.resume()
          } else {
            waiters[id] = StoreWaiter(condition: condition, continuation: continuation, deadline: deadline)
            if let deadline { armDeadline(deadline) }
          }
        }
      } onCancel: {
        Task { @MainActor [link] in link.root?.resumeWaiter(id) }
      }
    }
    return true
  }

  private func resumeWaiter(_ id: Int) {
    waiters.removeValue(forKey: id)?.continuation.resume()
  }

  /// Makes sure a timer is due no later than `deadline`. One timer serves every waiter: a test
  /// store's advance waits once per woken sleep, each time with about the same deadline, and a
  /// timer task per wait cost more than the rest of the step.
  private func armDeadline(_ deadline: ContinuousClock.Instant) {
    if let deadlineTimer, deadlineTimer.due <= deadline { return }
    deadlineTimer?.task.cancel()
    let link = self.link
    let task = Task { @MainActor [link] in
      try? await ContinuousClock().sleep(until: deadline, tolerance: nil)
      guard !Task.isCancelled, let root = link.root else { return }
      root.deadlineTimer = nil
      root.expireWaiters()
    }
    deadlineTimer = (deadline, task)
  }

  /// Resumes the waiters whose deadline has passed (they return false) and arms the timer for
  /// the earliest deadline left.
  private func expireWaiters() {
    let now = ContinuousClock.now
    var earliest: ContinuousClock.Instant?
    for (id, waiter) in waiters {
      guard let deadline = waiter.deadline else { continue }
      if deadline <= now {
        waiters[id] = nil
        waiter.continuation.resume()
      } else if earliest.map({ deadline < $0 }) ?? true {
        earliest = deadline
      }
    }
    if let earliest { armDeadline(earliest) }
  }

  /// Resumes the waiters whose condition now holds. Conditions are checked here, on the main actor,
  /// so a waiter is resumed only when it can return (each resumption is a main-queue turn).
  func signalActivity() {
    guard !waiters.isEmpty else { return }
    for (id, waiter) in waiters where waiter.condition() {
      waiters[id] = nil
      waiter.continuation.resume()
    }
  }

  /// A task an effect runs in, and its id in `inFlight`.
  typealias EffectTask = (id: Int, task: Task<Void, Never>)

  /// Starts an effect; returns the tasks it created (for concatenation, whose effects all run in
  /// tasks: `tasksOnly`).
  @discardableResult
  func start(_ effect: Effect<Action>, ids: [CancelID], tasksOnly: Bool = false) -> [EffectTask] {
    switch effect.operation {
    case .none:
      return []
    case let .send(action):
      if isSending { buffer.append(action) } else { receive(action) }
      return []
    case let .run(run):
      if !tasksOnly, let driven = run.driven {
        startDriven(driven, dependencies: run.dependencies, ids: ids)
        return []
      }
      return [startRun(run, ids: ids)]
    case let .merge(effects):
      return effects.flatMap { start($0, ids: ids, tasksOnly: tasksOnly) }
    case let .concatenate(effects):
      return [startConcatenation(effects, ids: ids)]
    case let .cancellable(inner, id, cancelInFlight):
      if cancelInFlight { cancel(id) }
      return start(inner, ids: ids + [id], tasksOnly: tasksOnly)
    case let .cancel(id):
      cancel(id)
      return []
    case let .cancelSubtree(path):
      cancelSubtree(path)
      return []
    case let .failure(failure):
      warn("An effect reported a failure outside of a send: \(failure)")
      return []
    }
  }

  /// Registers an effect's task under its cancel ids — each at every prefix of the place of the
  /// feature that made it, as TCA does: `Effect.cancel(id)` in a feature then reaches the effects
  /// with that id in all of its descendants (through optional, forEach, presents and stack), while
  /// a child's cancel reaches neither its parent's effects nor a sibling's.
  private func register(
    _ runner: EffectRunner, id taskID: Int, ids: [CancelID], activity: EffectActivity? = nil
  ) {
    let cancelIDs = ids.isEmpty ? nil : self.cancelIDs(ids)
    inFlight[taskID] = EffectInFlight(runner: runner, cancelIDs: cancelIDs, activity: activity)
    unstartedEffects += 1
    if activity == nil { concatenations.insert(taskID) }
    for group in cancelIDs?.groups ?? [] { group.tasks.insert(taskID) }
  }

  /// The keys effects with cancel ids `ids` are registered under (see `register`): the last
  /// effect's when they are the same ids (a loop of sends of one action makes thousands of effects
  /// with one id: they share one copy, not an array each).
  private func cancelIDs(_ ids: [CancelID]) -> EffectCancelIDs {
    if let lastCancelIDs, lastCancelIDs.groups.allSatisfy(\.isRegistered), lastCancelIDs.declared == ids {
      return lastCancelIDs
    }
    // Ids of a feature at the root have no place to prefix: the keys are the ids (one array).
    let unplaced = ids.allSatisfy(\.path.isEmpty)
    var keys: [CancelID] = unplaced ? ids : []
    for id in ids where !unplaced {
      for length in 0...id.path.count {
        var key = id
        if length < id.path.count { key.path = Array(id.path.prefix(length)) }
        keys.append(key)
      }
    }
    let groups = keys.map { key in
      if let group = cancellables[key] { return group }
      let group = CancelGroup(key: key)
      cancellables[key] = group
      return group
    }
    let made = EffectCancelIDs(declared: ids, groups: groups)
    lastCancelIDs = made
    return made
  }

  private func makeTaskID() -> Int {
    defer { nextTaskID += 1 }
    startQueue.append(nextTaskID)
    liveTasks += 1
    return nextTaskID
  }

  /// An effect task has returned (a cancelled one may return well after its cancel: its
  /// coroutine's `<close>` handlers run, what it holds is let go then).
  func taskEnded() {
    liveTasks -= 1
    if liveTasks == 0 { signalActivity() }
  }

  func finished(_ taskID: Int) {
    guard let entry = inFlight.removeValue(forKey: taskID) else { return }
    if entry.started { entry.activity?.ended() } else { unstartedEffects -= 1 }
    if entry.activity == nil {
      concatenations.remove(taskID)
      concatenationSteps[taskID] = nil
    }
    // No hash of a cancel id (a user's id hashes through `AnyHashable`) but when its last effect ends.
    for group in entry.cancelIDs?.groups ?? [] {
      group.tasks.remove(taskID)
      if group.tasks.isEmpty && group.isRegistered { unregister(group) }
    }
    signalActivity()
  }

  private func startRun(_ run: RunOperation<Action>, ids: [CancelID]) -> EffectTask {
    let taskID = makeTaskID()
    tasksToBegin.insert(taskID)
    let link = self.link
    let send = Send<Action>(
      deliver: { action in EffectDelivery.from(taskID) { link.root?.receive(action) } },
      warning: { link.root?.warn($0) })
    let body = run.body
    let activity = makeActivity()
    // Starts on the main actor (see `RunOperation`). Its task-locals are bound here and copied
    // into the task as it is made (see `RunOperation.dependencies`).
    let task = DependencyValues.$task.withValue(run.dependencies) {
      EffectActivity.$current.withValue(activity) {
        Task(priority: run.priority) { @MainActor in
          await link.root?.beginInOrder(taskID)
          // Cancelled before its first turn: it never runs (a Lua effect would run up to its
          // first await first).
          if !Task.isCancelled { await body(send) }
          link.root?.finished(taskID)
          link.root?.taskEnded()
        }
      }
    }
    register(.task(task), id: taskID, ids: ids, activity: activity)
    return (taskID, task)
  }

  /// A run effect's count of sleeps (see `EffectActivity`).
  private func makeActivity() -> EffectActivity {
    let link = self.link
    return EffectActivity(awake: awakeEffects) { warning, onMainActor in
      if onMainActor {
        MainActor.assumeIsolated { link.root?.warn(warning) }
      } else {
        Task { @MainActor in link.root?.warn(warning) }
      }
    }
  }

  /// Registers a driven effect (`Effect.driven`): it starts in `startDrivenEffects`, when its turn
  /// comes, and ends when it finishes or is cancelled.
  private func startDriven(_ driven: DrivenStart<Action>, dependencies: DependencyValues?, ids: [CancelID]) {
    let taskID = makeTaskID()
    let link = self.link
    let activity = makeActivity()
    let core = DrivenEffectCore(dependencies: dependencies, activity: activity)
    core.observe(link, id: taskID)
    let effect = DrivenEffect(core: core, unchecked: drivenSend, place: driven.place)
    let start = driven.start
    drivenStarts[taskID] = { effect.step { start(effect) } }
    register(.driven(core), id: taskID, ids: ids, activity: activity)
    scheduleDrivenStarts()
  }

  private func startConcatenation(_ effects: [Effect<Action>], ids: [CancelID]) -> EffectTask {
    let taskID = makeTaskID()
    tasksToBegin.insert(taskID)
    nonisolated(unsafe) let effects = effects
    let link = self.link
    let task = Task { @MainActor in
      await link.root?.beginInOrder(taskID)
      defer { link.root?.taskEnded() }
      for effect in effects {
        guard let root = link.root, !Task.isCancelled else { break }
        let children = root.start(effect, ids: [], tasksOnly: true)
        if root.inFlight[taskID] != nil { root.concatenationSteps[taskID] = children.map(\.id) }
        await withTaskCancellationHandler {
          for child in children { await child.task.value }
        } onCancel: {
          for child in children { child.task.cancel() }
        }
      }
      link.root?.finished(taskID)
    }
    register(.task(task), id: taskID, ids: ids)
    return (taskID, task)
  }

  func began(_ taskID: Int) {
    if let entry = inFlight[taskID], !entry.started {
      inFlight[taskID]!.started = true
      unstartedEffects -= 1
      entry.activity?.started()
    }
    signalActivity()
  }

  func cancel(_ id: CancelID) {
    guard let group = cancellables.removeValue(forKey: id) else { return }
    group.isRegistered = false
    let taskIDs = group.tasks
    group.tasks = []
    for taskID in taskIDs {
      inFlight[taskID]?.runner.cancel()
      finished(taskID)
    }
  }

  private func unregister(_ group: CancelGroup) {
    cancellables[group.key] = nil
    group.isRegistered = false
  }

  func cancelSubtree(_ path: NavigationPath) {
    for id in cancellables.keys where id.path.starts(with: path) { cancel(id) }
  }

  func cancelAllEffects() {
    for (taskID, entry) in inFlight {
      entry.runner.cancel()
      finished(taskID)
    }
  }

  var inFlightCount: Int { inFlight.count }
  var inFlightTaskIDs: Set<Int> { Set(inFlight.keys) }

  isolated deinit {
    linkStorage?.root = nil
    deadlineTimer?.task.cancel()
    for waiter in startWaiters.values { waiter.resume() }
    cancelAllEffects()
  }
}

extension Effect {
  /// Whether the effect only sends actions synchronously (no tasks, no cancellation).
  @usableFromInline
  var isSynchronous: Bool {
    switch operation {
    case .none, .send: return true
    case let .merge(effects), let .concatenate(effects): return effects.allSatisfy(\.isSynchronous)
    default: return false
    }
  }
}

/// An effect a store root runs. Not nested in the generic root: a nested type's metadata is
/// looked up at run time on each use in unspecialized code.
struct EffectInFlight {
  var runner: EffectRunner
  /// Its cancel ids; nil without any.
  var cancelIDs: EffectCancelIDs?
  /// A run effect's sleeps on a `TestStoreClock`; nil for a concatenation.
  var activity: EffectActivity?
  /// Whether the task has had its first main-actor turn.
  var started = false
}

/// How an effect in flight runs: a task, or driven by its host (`Effect.driven`).
enum EffectRunner {
  case task(Task<Void, Never>)
  case driven(DrivenEffectCore)

  /// Cancels it; a driven effect ends (and leaves the store's bookkeeping) there and then.
  @MainActor
  func cancel() {
    switch self {
    case let .task(task): task.cancel()
    case let .driven(core): core.cancel()
    }
  }
}

/// A task waiting in `StoreRoot.wait(until:timeout:)`. Not nested in the generic root: a nested
/// type's metadata is looked up at run time on each use in unspecialized code (seen as 10% of a
/// test store's advance).
private struct StoreWaiter {
  var condition: () -> Bool
  var continuation: CheckedContinuation<Void, Never>
  var deadline: ContinuousClock.Instant?
}

/// A store root as its effects and waiters hold it: without keeping it alive and without a weak
/// reference. (A weak reference gives an object a side table, after which every retain and release
/// of it takes the runtime's slow path; the root is retained several times per send.) The root
/// clears `root` when it goes; all of this happens on the main actor.
@MainActor
final class StoreRootLink<State, Action> {
  unowned(unsafe) var root: StoreRoot<State, Action>?
  init(_ root: StoreRoot<State, Action>) { self.root = root }
}

extension StoreRootLink: @MainActor DrivenEffectEndObserver {
  /// A driven effect ended: its bookkeeping goes.
  func drivenEffectEnded(id taskID: Int) {
    guard let root else { return }
    if root.drivenStarts.removeValue(forKey: taskID) != nil { root.skipCancelledStarts() }
    root.finished(taskID)
    root.taskEnded()
  }
}
