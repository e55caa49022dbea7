/// The engine behind a root `Store`: holds the state, runs the send loop (StoreRoot+Sending),
/// interprets effects and tracks the effects in flight (StoreRoot+Effects, +Cancellation,
/// +StartOrder, +Tasks). What only some stores need hangs off one optional reference each: tasks
/// waiting on it (`waitList`), a host recording its session (`recording`, but for `didReduce`),
/// a test store's settling counts (`settling`).
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

  /// The state as readers outside a reducer see it: brought up to date first when the host's
  /// transaction keeps parts of it lazily (see `StoreTransaction.isUnsettled`).
  @usableFromInline var settledState: State {
    if transaction != nil, transaction!.isUnsettled, !isReducing {
      transaction!.isUnsettled = false
      transaction!.settle(&state)
    }
    return state
  }
  @usableFromInline let reducer: (inout State, Action) -> Effect<Action>
  @usableFromInline let context: ReduceContext

  // Send loop.
  @exclusivity(unchecked) @usableFromInline var buffer: [Action] = []
  @exclusivity(unchecked) @usableFromInline var isSending = false
  @exclusivity(unchecked) @usableFromInline var isReducing = false
  /// Whether the root dismissed itself (`dismiss()` from an effect of a root feature): its
  /// effects were cancelled and sends are refused (see StoreRoot+Dismissal).
  @exclusivity(unchecked) @usableFromInline var isDismissed = false
  /// Where it dismissed itself (the `dismiss()` call's place), once it has.
  var dismissedAt: String?
  /// Whether its root feature counts as presented, so that its `dismiss()` dismisses the store
  /// (a test store, as TCA's; an embedded screen) rather than being a warning (TCA's live `Store`).
  var dismissesItself = false
  /// Where the send being made comes from (a script's line), for the warnings of the sends
  /// refused or queued off the common path; set by a host whose callers are not Swift source.
  var senderPlace: (() -> String?)?
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
  /// Concurrent parts of driven effects running (a task group's children, see `DrivenEffectPart`):
  /// they count toward `limits.maxEffectsInFlight` with the effects.
  var partsInFlight = 0
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
  /// What a test store waits on to know the effects have settled; nil until one asks
  /// (`trackSettling`, see StoreRoot+Settling).
  var settling: StoreSettling?
  /// What driven effects send through (each checks its own cancellation, see `DrivenEffect.send`).
  lazy var drivenSend: Send<Action> = {
    let link = self.link
    return Send(deliver: { link.root?.receive($0) }, warning: { link.root?.warn($0) })
  }()
  /// The cancel ids registered last (see `cancelIDs(_:)`).
  var lastCancelIDs: EffectCancelIDs?

  /// The tasks waiting for effects (see StoreRoot+Waiting); nil until the first wait.
  var waitList: StoreWaitList?

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

  /// Called after each action is reduced, with whether it came from an effect (a test store's or
  /// a recording host's hook). On the root itself, not in `recording`: it is read on every action.
  @exclusivity(unchecked) @usableFromInline var didReduce: ((Action, _ received: Bool) -> Void)?
  /// What else a host recording the session hears (see `StoreRecordingHooks`); nil until one listens.
  var recording: StoreRecordingHooks?

  /// The recording hooks, made on first use.
  var recordingHooks: StoreRecordingHooks {
    if let recording { return recording }
    let made = StoreRecordingHooks()
    recording = made
    return made
  }

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

  var inFlightCount: Int { inFlight.count }
  var inFlightTaskIDs: Set<Int> { Set(inFlight.keys) }

  isolated deinit {
    linkStorage?.root = nil
    waitList?.cancelDeadlineTimer()
    for waiter in startWaiters.values { waiter.resume() }
    cancelAllEffects()
  }
}
