extension Effect {
  /// Lets the `dismiss` dependency, called from this effect's runs, send `dismiss` through their Send.
  func withDismissHandler(sending dismissAction: Action) -> Effect {
    switch operation {
    case .none, .send, .cancel, .cancelSubtree, .failure: return self
    case let .run(run):
      let body = run.body
      // Actions are created and delivered on the main actor.
      nonisolated(unsafe) let dismissAction = dismissAction
      var driven: DrivenStart<Action>?
      if let inner = run.driven {
        // A driven effect has no task to bind the handler in: each of its steps binds it.
        nonisolated(unsafe) let start = inner.start
        driven = DrivenStart(
          start: { effect in
            let handler = DismissEffect.Handler { @MainActor in effect.send(dismissAction) }
            start(effect.binding { step in DismissEffect.$handler.withValue(handler, operation: step) })
          }, place: inner.place, name: inner.name)
      }
      return Effect(
        operation: .run(
          RunOperation(
            priority: run.priority, dependencies: run.dependencies,
            body: { @MainActor send in
              let handler = DismissEffect.Handler { @MainActor in send(dismissAction) }
              await DismissEffect.$handler.withValue(handler) { await body(send) }
            }, driven: driven)))
    case let .merge(effects): return Effect(operation: .merge(effects.map { $0.withDismissHandler(sending: dismissAction) }))
    case let .concatenate(effects):
      return Effect(operation: .concatenate(effects.map { $0.withDismissHandler(sending: dismissAction) }))
    case let .cancellable(effect, id, cancelInFlight):
      return Effect(operation: .cancellable(effect.withDismissHandler(sending: dismissAction), id: id, cancelInFlight: cancelInFlight))
    }
  }
}

