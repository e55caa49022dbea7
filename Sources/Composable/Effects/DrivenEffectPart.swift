/// A concurrent part of a driven effect: what a child task of a task group inside a `run` is to its
/// task (TCA's `withTaskGroup` in `.run`). It sends, is cancelled and ends with its effect, but a
/// test store counts it as an effect of its own: it is awake (can still run) while it is not
/// asleep on the test clock or parked, whatever its siblings do, so `receive` and `advance` wait
/// for it as they wait for an effect. It counts toward the store's `SendLimits.maxEffectsInFlight`.
///
/// The host makes one per child (`DrivenEffect.startPart()`), steps the child's work through
/// `effect`, and calls `end()` once when the child finishes or is cancelled.
@MainActor
public final class DrivenEffectPart<Action> {
  /// The effect as the part sees it: the same sends and cancellation, with the part's own sleeps.
  public let effect: DrivenEffect<Action>
  private let activity: EffectActivity?
  private var counter: (any DrivenEffectPartCounter)?

  fileprivate init(effect: DrivenEffect<Action>, activity: EffectActivity?, counter: (any DrivenEffectPartCounter)?) {
    self.effect = effect
    self.activity = activity
    self.counter = counter
    activity?.started()
  }

  /// The part finished or was cancelled: no longer counted (only the first call counts).
  public func end() {
    guard let counter else { return }
    self.counter = nil
    activity?.ended()
    counter.partEnded()
  }
}

/// More parts than a store runs at once (`SendLimits.maxEffectsInFlight`, effects and parts
/// together).
public struct TooManyEffectParts: Error, CustomStringConvertible {
  /// The `maxEffectsInFlight` that was reached.
  public var limit: Int
  /// The error for the user.
  public var description: String {
    "\(limit) effects and concurrent children are running, the most a store runs at once: no child was started (does a group spawn children without end?)"
  }
}

extension DrivenEffect {
  /// Starts a concurrent part of this effect (see `DrivenEffectPart`). Throws `TooManyEffectParts`
  /// when the store already runs as many effects and parts as its limits allow.
  public func startPart() throws -> DrivenEffectPart<Action> {
    let counter = core.observer as? any DrivenEffectPartCounter
    if let counter, let limit = counter.partStarted() { throw TooManyEffectParts(limit: limit) }
    let activity = core.activity?.part()
    let effect = activity.map { activity in
      binding { step in EffectActivity.$current.withValue(activity) { step() } }
    } ?? self
    return DrivenEffectPart(effect: effect, activity: activity, counter: counter ?? UncountedParts.shared)
  }
}

/// What counts a store's effect parts (its root's link).
@MainActor
protocol DrivenEffectPartCounter: AnyObject {
  /// A part starts: nil, or the limit that refuses it.
  func partStarted() -> Int?
  func partEnded()
}

/// The counter of parts of an effect no store counts (one hosted in a task).
@MainActor
private final class UncountedParts: DrivenEffectPartCounter {
  static let shared = UncountedParts()
  func partStarted() -> Int? { nil }
  func partEnded() {}
}

extension StoreRootLink: @MainActor DrivenEffectPartCounter {
  func partStarted() -> Int? {
    guard let root else { return nil }
    if root.inFlight.count + root.partsInFlight >= root.limits.maxEffectsInFlight { return root.limits.maxEffectsInFlight }
    root.partsInFlight += 1
    return nil
  }

  func partEnded() {
    root?.partsInFlight -= 1
  }
}
