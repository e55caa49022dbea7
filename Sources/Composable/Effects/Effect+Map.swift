extension Effect {
  /// Transforms the actions this effect sends. Used by every parent that embeds a child's effects.
  @inlinable
  public func map<Parent>(_ transform: @escaping (Action) -> Parent) -> Effect<Parent> {
    if case .none = operation { return .none }
    return _map(transform)
  }

  @usableFromInline
  func _map<Parent>(_ transform: @escaping (Action) -> Parent) -> Effect<Parent> {
    switch operation {
    case .none: return .none
    case let .send(action): return .send(transform(action))
    case let .run(run):
      let body = run.body
      // The transform runs on the main actor, where the store delivers actions.
      nonisolated(unsafe) let transform = transform
      var driven: DrivenStart<Parent>?
      if let child = run.driven {
        nonisolated(unsafe) let start = child.start
        driven = DrivenStart(start: { parent in start(parent.embedding(transform)) }, place: child.place, name: child.name)
      }
      return Effect<Parent>(
        operation: .run(
          RunOperation(
            priority: run.priority, dependencies: run.dependencies,
            body: { @MainActor send in await body(send.map(transform)) }, driven: driven))
      )
    case let .merge(effects): return Effect<Parent>(operation: .merge(effects.map { $0._map(transform) }))
    case let .concatenate(effects):
      return Effect<Parent>(operation: .concatenate(effects.map { $0._map(transform) }))
    case let .cancellable(effect, id, cancelInFlight):
      return Effect<Parent>(operation: .cancellable(effect._map(transform), id: id, cancelInFlight: cancelInFlight))
    case let .cancel(id): return Effect<Parent>(operation: .cancel(id))
    case let .cancelSubtree(path): return Effect<Parent>(operation: .cancelSubtree(path))
    case let .failure(failure): return Effect<Parent>(operation: .failure(failure))
    }
  }
}
