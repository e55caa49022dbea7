/// What a scoped store needs from the store it was scoped from.
@MainActor
@usableFromInline
struct ScopedView<State, Action> {
  @usableFromInline let getState: () -> State
  @usableFromInline let send: (Action) -> StoreTask
  let sendChecked: (Action) throws -> StoreTask
  let addObserver: (@escaping () -> Void) -> ObservationToken
  let warnings: () -> [RuntimeWarning]
  let clearWarnings: () -> Void
  let setOnWarning: (@escaping (RuntimeWarning) -> Void) -> Void
  let dependencies: () -> DependencyValues
  let inFlightCount: () -> Int
  let rootLimits: () -> SendLimits
  let cancelAll: () -> Void
  let waitForEffects: () async -> Void
  /// Keeps the root alive while a child store exists.
  let owner: AnyObject
}

extension Store {
  /// A store for a part of this one: its state is read from this store's state, its actions are sent
  /// through this store (and so through the root's reducer).
  public func scope<ChildState, ChildAction>(
    state toChildState: @escaping (State) -> ChildState,
    action fromChildAction: @escaping (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    let getState = stateGetter
    let send: (Action) -> StoreTask = { [self] in self.send($0) }
    return Store<ChildState, ChildAction>(
      view: ScopedView(
        getState: { toChildState(getState()) },
        send: { send(fromChildAction($0)) },
        sendChecked: { [self] in try self.sendChecked(fromChildAction($0)) },
        addObserver: { [self] in self.addObserver($0) },
        warnings: { [self] in self.warnings },
        clearWarnings: { [self] in self.clearWarnings() },
        setOnWarning: { [self] in self.onWarning($0) },
        dependencies: { [self] in self.dependencies },
        inFlightCount: { [self] in self.effectsInFlight },
        rootLimits: { [self] in self.limits },
        cancelAll: { [self] in self.cancelAllEffects() },
        waitForEffects: { [self] in await self.waitForEffects() },
        owner: self))
  }

  /// A store of a child's state (read through `keyPath`) and actions (embedded by
  /// `fromChildAction`), a view on this one.
  public func scope<ChildState, ChildAction>(
    state keyPath: KeyPath<State, ChildState>,
    action fromChildAction: @escaping (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    scope(state: { $0[keyPath: keyPath] }, action: fromChildAction)
  }

  /// A store of a child's state and actions, the actions embedded by a case lens.
  public func scope<ChildState, ChildAction>(
    state keyPath: KeyPath<State, ChildState>,
    action: CaseLens<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    scope(state: { $0[keyPath: keyPath] }, action: action.embed)
  }

  /// A store for an optional child, while it is present (nil otherwise).
  public func scope<ChildState, ChildAction>(
    state toChildState: @escaping (State) -> ChildState?,
    action fromChildAction: @escaping (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction>? {
    guard let initial = toChildState(state) else { return nil }
    var last = initial
    return scope(
      state: { state in
        // Keep the last value while the child is being dismissed (views may still read it).
        if let child = toChildState(state) { last = child }
        return last
      },
      action: fromChildAction)
  }
}
