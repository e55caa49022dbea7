extension Effect {
  /// Lets at most one action through per `duration` for `id`. Within a window, with `latest` the last
  /// action is sent when the window ends; otherwise the first one is kept and later ones dropped.
  /// Meant for effects that send one action (`.send`, or a `run` that sends once).
  public func throttle(
    id: some Hashable & Sendable, for duration: Duration, clock: any Clock<Duration>, latest: Bool
  ) -> Effect {
    throttle(id: id, for: duration, openedClock: clock, latest: latest)
  }

  private func throttle<C: Clock<Duration>>(
    id: some Hashable & Sendable, for duration: Duration, openedClock clock: C, latest: Bool
  ) -> Effect {
    let key = AnyHashableSendable(id)
    // Built and read on the main actor only (the run body below hops there before touching it).
    nonisolated(unsafe) let inner = self
    return Effect.run { @MainActor send in
      let throttle = ThrottleState.shared
      let actions = await inner.sentActions()
      guard let action = actions.last else { return }
      let now = clock.now
      guard let last = throttle.lastSent[key] as? C.Instant, last.duration(to: now) < duration else {
        throttle.lastSent[key] = now
        send(action)
        return
      }
      guard latest else { return }
      throttle.pending[key] = action
      try await clock.sleep(for: clock.now.duration(to: last.advanced(by: duration)), isolation: #isolation)
      guard let pending = throttle.pending.removeValue(forKey: key) as? Action else { return }
      throttle.lastSent[key] = clock.now
      send(pending)
    }
    .cancellable(id: id, cancelInFlight: latest)
  }

  /// Runs this effect outside any store and returns what it sent, in order.
  @MainActor
  func sentActions() async -> [Action] {
    var actions: [Action] = []
    await collectSent(into: &actions)
    return actions
  }

  @MainActor
  private func collectSent(into actions: inout [Action]) async {
    switch operation {
    case let .send(action): actions.append(action)
    case let .merge(effects), let .concatenate(effects):
      for effect in effects { await effect.collectSent(into: &actions) }
    case let .cancellable(effect, _, _): await effect.collectSent(into: &actions)
    case let .run(run):
      let box = ActionBox<Action>()
      await DependencyValues.$task.withValue(run.dependencies) { await run.body(Send { box.actions.append($0) }) }
      actions += box.actions
    case .none, .cancel, .cancelSubtree, .failure: break
    }
  }
}

@MainActor
private final class ActionBox<Action> {
  var actions: [Action] = []
}

@MainActor
final class ThrottleState {
  static let shared = ThrottleState()
  var lastSent: [AnyHashableSendable: Any] = [:]
  var pending: [AnyHashableSendable: Any] = [:]
}
