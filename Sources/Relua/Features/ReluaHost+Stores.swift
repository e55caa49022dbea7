import Composable
import Lua

/// How the host makes the engine's stores of Lua features: the root reducer (a leaf feature
/// called as it is, a composed one through its reducer tree) and the transaction through the
/// state views' write log.
extension ReluaHost {
  /// The store-side transaction over this host's views (see `StoreTransaction`).
  var storeTransaction: StoreTransaction<Value> { ViewsTransaction(views: views) }

  /// The same for a store of `feature` whose tree holds `shares`: also gives back the changes a
  /// failed send made to them, saves and spreads those of a send that ended, and brings the
  /// store's holders up to date when its state is read (see `SharedReadBarrier`).
  func storeTransaction(of feature: FeatureDefinition, shares: SharedRegistry?) -> ViewsTransaction {
    guard let shares, feature.reachesShares else { return ViewsTransaction(views: views) }
    return ViewsTransaction(views: views, feature: feature, shares: shares, barrier: sharedReadBarrier)
  }

  /// The views' barrier for shared holders (made with the first store holding shares).
  var sharedReadBarrier: SharedReadBarrier {
    if let made = sharedReadBarrierIfMade { return made }
    let made = SharedReadBarrier()
    sharedReadBarrierIfMade = made
    return made
  }

  /// A store of `feature` over this host's views (transactional through the views' write log).
  /// A feature without children is reduced by a closure written here, in the argument: a closure
  /// literal passed to the store is emitted for the store's generic signature, so the store calls
  /// it directly; one made elsewhere (`rootReducer(for:)`) is wrapped in a reabstraction thunk,
  /// a call more per action.
  func rootStore(
    of feature: FeatureDefinition, initialState: Value, dependencies: DependencyValues
  ) -> (store: Store<Value, FeatureAction>, transaction: ViewsTransaction?) {
    guard feature.isLeaf else {
      let transaction = storeTransaction(of: feature, shares: dependencies[SharedRegistryKey.self])
      let store = Store(
        initialState: initialState, reduce: rootReducer(for: feature, transaction: transaction), dependencies: dependencies,
        transaction: transaction)
      transaction.sender = ObjectIdentifier(store)
      return (store, transaction)
    }
    let root = LeafRootReducer(host: self, feature: feature)
    let store = Store(
      initialState: initialState, reduceOnMainActor: { state, action in root.reduce(&state, action) },
      dependencies: dependencies, transaction: storeTransaction)
    return (store, nil)
  }

  /// The root reducer of a store of `feature`: notes the action being processed (for anchors),
  /// and marks the state unsettled when the action wrote shares (`transaction`: the store's).
  /// Without a transaction of the host's (a store made elsewhere), holders are brought up to date
  /// after each action instead.
  func rootReducer(for feature: FeatureDefinition, transaction: ViewsTransaction? = nil) -> (inout Value, FeatureAction) -> Effect<FeatureAction> {
    // A feature without children is its own leaf: called as it is (what the builder makes of it,
    // wrapped in a type-erased node, costs a partial application per send).
    if feature.isLeaf {
      let root = LeafRootReducer(host: self, feature: feature)
      return { state, action in root.reduce(&state, action) }
    }
    // Captures the host's `currentSend`, not the host (stores must not keep it alive).
    let currentSend = currentSend
    let reducer = FeatureReducerBuilder.reducer(for: feature, host: self)
    if let transaction, let shares = transaction.shares {
      // The other holders of what the action wrote are not walked here: the state is settled
      // when it is read (`ViewsTransaction.settle`), a reducer's session when it looks.
      return { state, action in
        currentSend.set(feature, action)
        let writes = shares.writes
        let effect = reducer.reduce(into: &state, action: action)
        if shares.writes != writes { transaction.markUnsettled() }
        return effect
      }
    }
    if feature.reachesShares {
      return { [unowned self] state, action in
        currentSend.set(feature, action)
        let effect = reducer.reduce(into: &state, action: action)
        return self.syncShares(in: &state, of: feature) ?? effect
      }
    }
    return { state, action in
      currentSend.set(feature, action)
      return reducer.reduce(into: &state, action: action)
    }
  }
}

/// A feature without children as a store's root reducer: notes the action being processed (for
/// anchors), then runs the feature's own logic. Holds the host's `currentSend`, not the host
/// (stores must not keep it alive).
struct LeafRootReducer {
  let currentSend: CurrentSend
  let feature: FeatureDefinition
  let leaf: LuaLeafReducer

  init(host: ReluaHost, feature: FeatureDefinition) {
    currentSend = host.currentSend
    self.feature = feature
    leaf = LuaLeafReducer(feature: feature, host: host)
  }

  /// On the main actor: a store's reduce function calls the leaf's body directly (the leaf's
  /// `Reducer` conformance, which is not isolated, goes through `callOnMainActor`: a call more).
  @MainActor @inline(__always)
  func reduce(_ state: inout Value, _ action: FeatureAction) -> Effect<FeatureAction> {
    currentSend.set(feature, action)
    return leaf.reduceOnMainActor(&state, action)
  }
}

/// A store's transactions through the state views' write log (see `StoreTransaction`).
final class ViewsTransaction: StoreTransaction<Value> {
  let views: StateViews
  /// The store's root feature and the shares of its tree, if it holds any.
  let feature: FeatureDefinition?
  let shares: SharedRegistry?
  /// `shares`, not retained (for the hot paths of a send: no retain and release per use).
  let sharesUnretained: Unmanaged<SharedRegistry>?
  private let barrier: SharedReadBarrier?
  /// Whether this transaction set `isUnsettled` since the state was last settled: a mirror read
  /// here, so that a send finding it set writes nothing (the engine's flag, in another module,
  /// is checked for exclusive access on every access from here).
  @exclusivity(unchecked) private var isMarkedUnsettled = false
  /// The store (its state is up to date when its send ends: the others are updated).
  @exclusivity(unchecked) var sender: ObjectIdentifier?
  /// `shares.writes` when the store's holders were last all brought up to date: while the count
  /// differs, some may be behind their shares.
  @exclusivity(unchecked) var settledAt: UInt64
  /// The send with shares that was running when this one began (a send inside another's).
  @exclusivity(unchecked) private unowned(unsafe) var outer: ViewsTransaction?

  init(views: StateViews, feature: FeatureDefinition? = nil, shares: SharedRegistry? = nil, barrier: SharedReadBarrier? = nil) {
    self.views = views
    self.feature = feature
    self.shares = shares
    sharesUnretained = shares.map { Unmanaged.passUnretained($0) }
    self.barrier = barrier
    settledAt = shares?.writes ?? 0
  }

  /// Marks the state unsettled (see `StoreTransaction.isUnsettled`).
  @inline(__always)
  func markUnsettled() {
    guard !isMarkedUnsettled else { return }
    isMarkedUnsettled = true
    isUnsettled = true
  }

  override func begin() {
    views.beginTransaction()
    if let shares = sharesUnretained {
      callOnMainActor({ @MainActor (shares: Unmanaged<SharedRegistry>) in withUnretained(shares) { $0.beginSend() } }, shares)
      outer = barrier?.send
      barrier?.send = self
    }
  }

  override func end() {
    views.endTransaction()
    if let shares = sharesUnretained {
      barrier?.send = outer
      outer = nil
      if withUnretained(shares, { $0.writes }) != settledAt { markUnsettled() }
      callOnMainActor(
        { @MainActor (shares: Unmanaged<SharedRegistry>, sender: ObjectIdentifier?) in withUnretained(shares) { $0.commitSend(sender: sender) } },
        shares, sender)
    }
  }

  override func rollBack(_ state: inout Value) {
    views.rollBackTransaction(&state)
    if let shares {
      barrier?.send = outer
      outer = nil
      callOnMainActor({ @MainActor (shares: SharedRegistry) in shares.rollBackSend() }, shares)
      if shares.writes != settledAt { markUnsettled() }
    }
  }

  /// Every holder in the tree takes its share's value (between a send's actions the writes are
  /// logged for its transaction). A key that cannot be made is a warning: the holder keeps its copy.
  override func settle(_ state: inout Value) {
    isMarkedUnsettled = false  // (the store cleared `isUnsettled` before calling this)
    guard let shares, let root = feature else { return }
    nonisolated(unsafe) let views = views
    nonisolated(unsafe) let feature = root
    let settled: Bool = MainActor.assumeIsolated {
      do {
        try SharedSync.syncTree(feature, &state, registry: shares) { container, key, old in
          views.recordWrite(at: container, key: key, old: old)
        }
        return true
      } catch {
        shares.warn("\(error)")
        return false
      }
    }
    if settled { settledAt = shares.writes }
  }

  /// A link brought the holders up to date with the shares (a change made elsewhere).
  func didSettle() { if let shares { settledAt = shares.writes } }
}
