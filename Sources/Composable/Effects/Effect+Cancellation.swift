extension Effect {
  /// Makes this effect cancellable by `id`. With `cancelInFlight`, effects already running under the
  /// same id are cancelled first (a new search replaces the old one).
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Effect {
    if case .none = operation, !cancelInFlight { return .none }
    return Effect(operation: .cancellable(self, id: CancelID(id: id), cancelInFlight: cancelInFlight))
  }

  /// Cancels the in-flight effects that this feature made cancellable by `id`.
  public static func cancel(id: some Hashable & Sendable) -> Effect {
    Effect(operation: .cancel(CancelID(id: id)))
  }

  /// Cancels every effect of the child at this place below the current feature (used by the navigation
  /// operators when a child goes away).
  public static func cancel(child: NavigationID) -> Effect {
    Effect(operation: .cancelSubtree([child]))
  }

  /// Places this (child's) effect below `navigationID`: its cancellation ids are qualified by it, and it
  /// can be cancelled as a whole with `.cancel(child: navigationID)`.
  @inlinable
  public func scoped(to navigationID: NavigationID) -> Effect {
    if case .none = operation { return .none }
    return _scoped(to: navigationID)
  }

  @usableFromInline
  func _scoped(to navigationID: NavigationID) -> Effect {
    switch operation {
    case .none, .send, .failure: return self
    case .run:
      // Every child effect is registered under the child's place, so removing the child cancels it.
      return Effect(operation: .cancellable(self, id: CancelID(path: [navigationID], id: ChildEffectsID()), cancelInFlight: false))
    case let .merge(effects): return Effect(operation: .merge(effects.map { $0._scoped(to: navigationID) }))
    case let .concatenate(effects):
      return Effect(
        operation: .cancellable(
          Effect(operation: .concatenate(effects.map { $0._prefixed(with: navigationID) })),
          id: CancelID(path: [navigationID], id: ChildEffectsID()), cancelInFlight: false))
    case let .cancellable(effect, id, cancelInFlight):
      var id = id
      id.path.insert(navigationID, at: 0)
      // The inner effects run under this (now qualified) id, which the child's subtree cancel reaches.
      return Effect(operation: .cancellable(effect._prefixed(with: navigationID), id: id, cancelInFlight: cancelInFlight))
    case let .cancel(id):
      var id = id
      id.path.insert(navigationID, at: 0)
      return Effect(operation: .cancel(id))
    case let .cancelSubtree(path): return Effect(operation: .cancelSubtree([navigationID] + path))
    }
  }

  /// Qualifies ids without adding the whole-child registration (inside a registered concatenation).
  func _prefixed(with navigationID: NavigationID) -> Effect {
    switch operation {
    case .none, .send, .failure, .run: return self
    case let .merge(effects): return Effect(operation: .merge(effects.map { $0._prefixed(with: navigationID) }))
    case let .concatenate(effects):
      return Effect(operation: .concatenate(effects.map { $0._prefixed(with: navigationID) }))
    case let .cancellable(effect, id, cancelInFlight):
      var id = id
      id.path.insert(navigationID, at: 0)
      return Effect(operation: .cancellable(effect._prefixed(with: navigationID), id: id, cancelInFlight: cancelInFlight))
    case let .cancel(id):
      var id = id
      id.path.insert(navigationID, at: 0)
      return Effect(operation: .cancel(id))
    case let .cancelSubtree(path): return Effect(operation: .cancelSubtree([navigationID] + path))
    }
  }
}

/// The id under which all of one child's effects are registered.
@usableFromInline
struct ChildEffectsID: Hashable, Sendable {
  @usableFromInline init() {}
}
