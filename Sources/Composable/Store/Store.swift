/// Runs a feature: holds its state, sends actions through its reducer, runs effects, and tells
/// observers about changes. Scoped stores (`scope(state:action:)`) are views on the root store.
@MainActor
public final class Store<State, Action> {
  @usableFromInline let root: StoreRoot<State, Action>?
  @usableFromInline let view: ScopedView<State, Action>?

  /// Makes a root store. `dependencies` overrides dependency values for every reducer and effect of
  /// this store. A `transactional` store snapshots the state before each send so that a reducer
  /// failure (`Effect.failure`) restores it; otherwise only `sendChecked` does.
  @inlinable
  public convenience init<R: Reducer>(
    initialState: State,
    reducer: R,
    transactional: Bool = false,
    withDependencies prepare: (inout DependencyValues) -> Void = { _ in }
  ) where R.State == State, R.Action == Action {
    var dependencies = DependencyValues.fallback
    prepare(&dependencies)
    self.init(
      initialState: initialState, reduce: reducer.reduce(into:action:), dependencies: dependencies,
      transactional: transactional)
  }

  /// Makes a root store whose reducer is built from others (`Scope`, `Reduce`, …) by a result
  /// builder.
  @inlinable
  public convenience init<R: Reducer>(
    initialState: State,
    transactional: Bool = false,
    withDependencies prepare: (inout DependencyValues) -> Void = { _ in },
    @ReducerBuilder<State, Action> reducer: () -> R
  ) where R.State == State, R.Action == Action {
    self.init(initialState: initialState, reducer: reducer(), transactional: transactional, withDependencies: prepare)
  }

  /// Makes a root store from a reduce function (for hosts that build reducers at run time).
  /// `transaction`: the host's own undo for transactional sends (see `StoreTransaction`); with it,
  /// every send is transactional.
  @usableFromInline
  package init(
    initialState: State, reduce: @escaping (inout State, Action) -> Effect<Action>,
    dependencies: DependencyValues, transactional: Bool = false, transaction: StoreTransaction<State>? = nil
  ) {
    self.root = StoreRoot(
      initialState: initialState, reducer: reduce, dependencies: dependencies, transactional: transactional,
      transaction: transaction)
    self.view = nil
  }

  /// Makes a root store from a reduce function isolated to the main actor, where the store runs
  /// its reducers: a host whose reducers live there gives them to the store as they are, and the
  /// store calls them without an executor check (optimized builds; debug builds check).
  package convenience init(
    initialState: State, reduceOnMainActor reduce: @escaping @MainActor (inout State, Action) -> Effect<Action>,
    dependencies: DependencyValues, transaction: StoreTransaction<State>? = nil
  ) {
    #if DEBUG
      let nonisolatedReduce: (inout State, Action) -> Effect<Action> = { state, action in
        withUnsafeMutablePointer(to: &state) { state in
          nonisolated(unsafe) let state = state
          nonisolated(unsafe) let action = action
          nonisolated(unsafe) var effect: Effect<Action>?
          MainActor.assumeIsolated { effect = reduce(&state.pointee, action) }
          return effect!
        }
      }
    #else
      // The same function: a global actor changes how a synchronous function is checked, not
      // how it is called.
      let nonisolatedReduce = unsafeBitCast(reduce, to: ((inout State, Action) -> Effect<Action>).self)
    #endif
    self.init(initialState: initialState, reduce: nonisolatedReduce, dependencies: dependencies, transaction: transaction)
  }

  init(view: ScopedView<State, Action>) {
    self.root = nil
    self.view = view
  }

  /// How much work one send may cause (a scoped store shares its root's). Limits below 1 are
  /// raised to 1.
  public var limits: SendLimits {
    get { root?.limits ?? view!.rootLimits() }
    set {
      guard let root else { return }
      root.limits = SendLimits(
        maxActionsPerSend: max(1, newValue.maxActionsPerSend), maxEffectsInFlight: max(1, newValue.maxEffectsInFlight))
    }
  }

  /// Whether the store is in the middle of a send (its state is then lent to a reducer).
  public var isSending: Bool { root?.isSending ?? false }

  /// The current state.
  @inlinable
  public var state: State {
    if let root { return root.settledState }
    return view!.getState()
  }

  /// Reads a part of the current state.
  public func withState<Value>(_ body: (State) -> Value) -> Value { body(state) }

  /// Sends an action. Actions sent by its synchronous effects are handled first-in first-out within this
  /// call; observers are told once at the end. Returns the effects the send started.
  @inlinable @discardableResult
  public func send(_ action: Action) -> StoreTask {
    if let root {
      if root.isDismissed {
        root.refuseSendAfterDismissal(action)
        return StoreTask()
      }
      let first = root.nextTaskID
      root.send(action)
      return root.task(since: first)
    } else {
      return view!.send(action)
    }
  }

  /// Sends an action as a transaction: if a reducer fails (`Effect.failure`), the state is restored to
  /// what it was before this call, no effect of the send starts, and the error is thrown.
  @inlinable @inline(__always) @discardableResult
  package func sendChecked(_ action: Action) throws -> StoreTask {
    // Inlinable so hosts get it specialized for their state and action types (no generic
    // metadata lookups per send), and inlined into their send (a call level and a copy of the
    // action less). `root!` borrows the root for the call (`if let root` would retain and
    // release it on every send).
    if root != nil, !root!.isSending, !root!.isDismissed {
      let first = root!.nextTaskID
      if let failure = root!.sendTransactionally(action) { throw failure }
      return root!.task(since: first)
    }
    return try rootSendChecked(action)
  }

  /// Replaces the state (root stores): time travel and state files in hosts such as a REPL. It is
  /// not an action: no reducer runs; observers are told; running effects keep running.
  public func restore(_ state: State) {
    guard let root, !root.isSending else { return }
    root.state = state
    if !root.observers.isEmpty { root.notifyObservers() }
  }

  /// Adds a runtime warning (a host's own: a shared value that could not be loaded or saved).
  package func warn(_ message: String) { root?.warn(message) }

  /// Runtime warnings collected so far (actions for absent children, effect errors, …).
  public var warnings: [RuntimeWarning] { root?.warnings ?? view!.warnings() }

  /// Forgets collected warnings.
  public func clearWarnings() {
    if let root { root.warnings.removeAll() } else { view!.clearWarnings() }
  }

  /// Called for each new warning (e.g. a REPL printing them as they happen).
  public func onWarning(_ handler: @escaping (RuntimeWarning) -> Void) {
    if let root { root.onWarning = handler } else { view!.setOnWarning(handler) }
  }

  /// The dependencies of this store's reducers (root stores only; scoped stores share the root's).
  public var dependencies: DependencyValues {
    get { root?.dependencies ?? view!.dependencies() }
    set { root?.dependencies = newValue }
  }

  /// Called after each action is reduced, with whether it was *received* (sent by an effect,
  /// synchronous `.send` effects included) rather than passed to `send`: what a host needs to record
  /// a session as a test (`TestStore` asserts the first with `send`, the others with `receive`).
  /// Read the state in it for the state that action led to. Root stores only (nil and ignored on
  /// scoped stores); one handler at a time. Called before a failed transactional send is rolled back.
  package var onReduce: ((Action, _ received: Bool) -> Void)? {
    get { root?.didReduce }
    set { root?.didReduce = newValue }
  }

  /// Called when a send fails and its state is restored (transactional stores): the actions
  /// `onReduce` was told of during it were undone. A host that shows each reduced action once
  /// the send ends (the REPL's inspector) forgets them. Root stores only; one handler at a time.
  package var onRollBack: (() -> Void)? {
    get { root?.recording?.didRollBack }
    set { root?.recordingHooks.didRollBack = newValue }
  }

  /// How many effects are running.
  public var effectsInFlight: Int { root?.inFlightCount ?? view!.inFlightCount() }

  /// The effects running now, oldest first (root stores; empty for scoped ones): for a host that
  /// shows and cancels them (a REPL's `:cancel`).
  public var runningEffects: [RunningEffect] {
    guard let root else { return [] }
    return root.inFlight.keys.sorted().map { id in
      let entry = root.inFlight[id]!
      return RunningEffect(
        id: id, cancelIDs: (entry.cancelIDs?.declared ?? []).map(\.description), isConcatenation: entry.activity == nil,
        name: entry.name, place: entry.place)
    }
  }

  /// Returns when the running effects are not those `shown` returns (read at each check: what a
  /// host last showed), or after `timeout`: for a host that shows them as they change (an
  /// inspector). Checked when an effect ends or delivers an action. Root stores only.
  package func waitForRunningEffects(toDifferFrom shown: @escaping () -> [Int], timeout: Duration) async {
    guard let root else { return }
    await root.wait(
      until: {
        let expected = shown()
        return root.inFlight.count != expected.count || expected.contains { root.inFlight[$0] == nil }
      }, timeout: timeout)
  }

  /// Cancels the running effect `id` (see `runningEffects`); false when it is not running.
  @discardableResult
  public func cancelEffect(_ id: Int) -> Bool {
    guard let root, root.inFlight[id] != nil else { return false }
    root.recording?.didCancelFromHost?(id)
    root.cancelTasks(id..<(id + 1))
    return true
  }

  /// Cancels every running effect.
  public func cancelAllEffects() {
    if let root {
      if !root.inFlight.isEmpty { root.recording?.didCancelFromHost?(nil) }
      root.cancelAllEffects()
    } else {
      view!.cancelAll()
    }
  }

  /// Called before a host cancels effects from outside the reducers — `cancelEffect(_:)` with the
  /// effect's id, `cancelAllEffects()` (when some are running) with nil — what a host recording the
  /// session as a test must write down (the reducers' own `Effect.cancel` replays by itself).
  /// Root stores only; one handler at a time.
  package var onCancelFromHost: ((_ effect: Int?) -> Void)? {
    get { root?.recording?.didCancelFromHost }
    set { root?.recordingHooks.didCancelFromHost = newValue }
  }

  /// The id the next effect this store starts will have (`RunningEffect.id`s are given in the
  /// order effects start, from 0 when the store is made). Root stores only (0 otherwise).
  package var nextEffectID: Int { root?.nextTaskID ?? 0 }

  /// Waits until no effect is running (for scripts and hosts; tests use `TestStore.finish`).
  /// Event-driven: resumes when the last effect in flight finishes (or the waiting task is cancelled).
  public func waitForEffects() async {
    if let root {
      // Cancelled effects too, to their end (their clean-up has run when this returns).
      await root.wait(until: { root.inFlightCount == 0 && root.liveTasks == 0 })
    } else {
      await view!.waitForEffects()
    }
  }

  /// `waitForEffects` with a limit; false when effects were still running at the deadline.
  @discardableResult
  public func waitForEffects(timeout: Duration) async -> Bool {
    guard let root else { await view!.waitForEffects(); return true }
    return await root.wait(until: { root.inFlightCount == 0 }, timeout: timeout)
  }

  // MARK: Observation

  /// Calls `onChange` with the projection now and after each send that changes it.
  /// Keep the token: observation stops when it is cancelled or released.
  public func observe<Value: Equatable>(
    _ projection: @escaping (State) -> Value, onChange: @escaping (Value) -> Void
  ) -> ObservationToken {
    let getState = stateGetter
    var last = projection(getState())
    onChange(last)
    return addObserver {
      let value = projection(getState())
      if value != last {
        last = value
        onChange(value)
      }
    }
  }

  /// Calls `onChange` with the value at `keyPath` each time a send changes it.
  public func observe<Value: Equatable>(
    _ keyPath: KeyPath<State, Value>, onChange: @escaping (Value) -> Void
  ) -> ObservationToken {
    observe({ $0[keyPath: keyPath] }, onChange: onChange)
  }

  /// Calls `onChange` once after every send (whether or not the state changed).
  public func observeSends(_ onChange: @escaping (State) -> Void) -> ObservationToken {
    let getState = stateGetter
    return addObserver { onChange(getState()) }
  }

  var stateGetter: () -> State {
    if let root { return { root.settledState } }
    return view!.getState
  }

  func addObserver(_ observer: @escaping () -> Void) -> ObservationToken {
    if let root {
      let id = root.addObserver(observer)
      let link = root.link
      return ObservationToken { link.root?.removeObserver(id) }
    }
    return view!.addObserver(observer)
  }

  @usableFromInline
  func rootSendChecked(_ action: Action) throws -> StoreTask {
    if let root {
      if root.isDismissed {
        root.refuseSendAfterDismissal(action)
        return StoreTask()
      }
      if root.isReducing, let place = root.senderPlace?() {
        // One of its own reducers sent it (a host told where from): queued, one warning.
        root.warnOfReentrantSend(action, from: place)
        root.buffer.append(action)
        return StoreTask()
      }
      guard !root.isSending else {
        root.warn("sendChecked was called during a send; the action was queued without a transaction.")
        root.send(action)
        return StoreTask()
      }
      root.lastFailure = nil
      let first = root.nextTaskID
      root.send(action, transactional: true)
      if let failure = root.lastFailure {
        root.lastFailure = nil
        throw failure
      }
      return root.task(since: first)
    } else {
      return try view!.sendChecked(action)
    }
  }
}

/// Keeps an observation alive; `cancel()` (or releasing it) stops it.
@MainActor
public final class ObservationToken {
  private var onCancel: (() -> Void)?
  init(_ onCancel: @escaping () -> Void) { self.onCancel = onCancel }

  /// Stops the observation (releasing the token does too); idempotent.
  public func cancel() {
    onCancel?()
    onCancel = nil
  }

  isolated deinit { cancel() }
}
