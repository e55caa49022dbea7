import Composable
import Lua

/// How the host makes the engine's stores of Lua features: the root reducer (a leaf feature
/// called as it is, a composed one through its reducer tree) and the transaction through the
/// state views' write log.
extension ReluaHost {
  /// The store-side transaction over this host's views (see `StoreTransaction`).
  var storeTransaction: StoreTransaction<Value> { ViewsTransaction(views: views, shares: nil) }

  /// The same, also giving back the changes a failed send made to `shares`, and saving and
  /// spreading those of a send that ended.
  func storeTransaction(shares: SharedRegistry?) -> ViewsTransaction { ViewsTransaction(views: views, shares: shares) }

  /// A store of `feature` over this host's views (transactional through the views' write log).
  /// A feature without children is reduced by a closure written here, in the argument: a closure
  /// literal passed to the store is emitted for the store's generic signature, so the store calls
  /// it directly; one made elsewhere (`rootReducer(for:)`) is wrapped in a reabstraction thunk,
  /// a call more per action.
  func rootStore(
    of feature: FeatureDefinition, initialState: Value, dependencies: DependencyValues
  ) -> Store<Value, FeatureAction> {
    guard feature.isLeaf else {
      let transaction = ViewsTransaction(views: views, shares: feature.reachesShares ? dependencies[SharedRegistryKey.self] : nil)
      let store = Store(
        initialState: initialState, reduce: rootReducer(for: feature), dependencies: dependencies, transaction: transaction)
      transaction.sender = ObjectIdentifier(store)
      return store
    }
    let root = LeafRootReducer(host: self, feature: feature)
    return Store(
      initialState: initialState, reduceOnMainActor: { state, action in root.reduce(&state, action) },
      dependencies: dependencies, transaction: storeTransaction)
  }

  /// The root reducer of a store of `feature`: notes the action being processed (for anchors).
  func rootReducer(for feature: FeatureDefinition) -> (inout Value, FeatureAction) -> Effect<FeatureAction> {
    // A feature without children is its own leaf: called as it is (what the builder makes of it,
    // wrapped in a type-erased node, costs a partial application per send).
    if feature.isLeaf {
      let root = LeafRootReducer(host: self, feature: feature)
      return { state, action in root.reduce(&state, action) }
    }
    // Captures the host's `currentSend`, not the host (stores must not keep it alive).
    let currentSend = currentSend
    let reducer = FeatureReducerBuilder.reducer(for: feature, host: self)
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
  /// The shares of the store's tree, if it holds any.
  let shares: SharedRegistry?
  /// The store (its state is up to date when its send ends: the others are updated).
  var sender: ObjectIdentifier?

  init(views: StateViews, shares: SharedRegistry?) {
    self.views = views
    self.shares = shares
  }

  override func begin() {
    views.beginTransaction()
    if let shares { MainActor.assumeIsolated { shares.beginSend() } }
  }

  override func end() {
    views.endTransaction()
    if let shares {
      let sender = sender
      MainActor.assumeIsolated { shares.commitSend(sender: sender) }
    }
  }

  override func rollBack(_ state: inout Value) {
    views.rollBackTransaction(&state)
    if let shares { MainActor.assumeIsolated { shares.rollBackSend() } }
  }
}
