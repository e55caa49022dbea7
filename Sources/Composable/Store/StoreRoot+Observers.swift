/// What a root store tells after each send: the observers `Store.observe` adds.
extension StoreRoot {
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
}
