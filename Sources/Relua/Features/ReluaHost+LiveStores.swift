import Composable

/// The stores made in a host's state (`stores`: without keeping them alive; a store removes itself
/// when it goes; no weak reference: see `StoreRootLink`): the states they hold, counted against
/// the memory limit, and their effects, stopped before the state closes.
extension ReluaHost {
  func track(_ store: Store<Value, FeatureAction>) { stores[ObjectIdentifier(store)] = .passUnretained(store) }

  func untrack(_ store: Store<Value, FeatureAction>) { stores[ObjectIdentifier(store)] = nil }

  /// Every store of this state, test stores' included.
  private var liveStores: [Store<Value, FeatureAction>] {
    stores.values.map { $0.takeUnretainedValue() } + (testStateIfMade?.stores ?? []).map(\.testStore.store)
  }

  /// Every state this host holds for its scripts (see `StateMemory`).
  func heldStates() -> [(owner: ObjectIdentifier?, state: Value?)] {
    let held = liveStores
    var states = held.map { store in (owner: Optional(ObjectIdentifier(store)), state: store.isSending ? nil : Optional(store.state)) }
    if views.isActive { states.append((owner: nil, state: views.value)) }
    // Shares' values are held too, a store holding them or not (`key:set` from an effect).
    let registries = [liveSharesIfMade].compactMap { $0 } + (testStateIfMade?.stores ?? []).map(\.shares)
    for registry in registries {
      for share in registry.allShares { states.append((owner: ObjectIdentifier(share), state: share.value)) }
    }
    return states
  }

  /// Cancels the effects of every store of this state and waits (up to 2 s each) until they have
  /// ended: a coroutine must never be resumed after its Lua state closed.
  package func stopEffects() async {
    let live = liveStores
    for store in live { store.cancelAllEffects() }
    for store in live { await store.waitForEffects(timeout: .seconds(2)) }
  }

  /// Cancels the effects every store of this state is running (the REPL's Ctrl-C at a prompt:
  /// effects that start effects without end cannot be stopped otherwise); how many there were.
  @discardableResult
  package func cancelRunningEffects() -> Int {
    let live = liveStores
    let running = live.reduce(0) { $0 + $1.effectsInFlight }
    for store in live where store.effectsInFlight > 0 { store.cancelAllEffects() }
    return running
  }
}
