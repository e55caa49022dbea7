/// A root store's send loop: reduces an action and everything it leads to synchronously, sorts the
/// effects, and restores the state when a transactional send fails.
extension StoreRoot {
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
    if inFlight.count + partsInFlight >= limits.maxEffectsInFlight {
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
      recording?.didRollBack?()
      warn("A reducer failed: \(failure). The state was restored to what it was before the send.")
    } else if transactional, let snapshot {
      state = snapshot
      self.snapshot = nil
      recording?.didRollBack?()
      warn("A reducer failed: \(failure). The state was restored to what it was before the send.")
    } else {
      warn("A reducer failed: \(failure). This store is not transactional, so the state could not be restored.")
    }
  }

  /// Delivers an action sent by a running effect.
  func receive(_ action: Action) {
    // (Its effects were cancelled when it was dismissed: nothing is delivered after.)
    guard !isDismissed else { return }
    send(action, received: true)
    signalActivity()
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
