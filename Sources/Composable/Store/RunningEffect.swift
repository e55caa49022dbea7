/// An effect a root store is running (see `Store.runningEffects`).
public struct RunningEffect: Sendable, Equatable {
  /// The store's number for it: effects started later have larger ones.
  public var id: Int
  /// Its cancel ids (`Effect.cancellable`), qualified by the place of the feature that returned it.
  public var cancelIDs: [String]
  /// A concatenation (it runs its effects one after another) rather than a run effect.
  public var isConcatenation: Bool
  /// Its name (`Effect.driven(place:name:start:)`, TCA's `Effect.run(name:)`); nil without one.
  public var name: String? = nil
  /// Where a named effect was made (a script's `file:line`); nil without a name.
  public var place: String? = nil

  /// How a host lists it: `an effect named "timer" (Feature.lua:12)`, `an effect`, `a concatenation`.
  public var kindDescription: String {
    if isConcatenation { return "a concatenation" }
    guard let name else { return "an effect" }
    return "an effect named \"\(name)\"" + (place.map { " (\($0))" } ?? "")
  }
}
