/// An effect a root store is running (see `Store.runningEffects`).
public struct RunningEffect: Sendable, Equatable {
  /// The store's number for it: effects started later have larger ones.
  public var id: Int
  /// Its cancel ids (`Effect.cancellable`), qualified by the place of the feature that returned it.
  public var cancelIDs: [String]
  /// A concatenation (it runs its effects one after another) rather than a run effect.
  public var isConcatenation: Bool
}
