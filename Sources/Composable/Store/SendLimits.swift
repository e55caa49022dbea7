/// Bounds on the work one store does for its actions, so a feature that feeds itself — an action
/// whose effect sends it again, effects that each start two more — fails with a message instead
/// of growing until the process dies. TCA has no such bounds; a host running untrusted features
/// needs them. Both are far above what a real feature does.
public struct SendLimits: Sendable, Equatable {
  /// Actions one send may lead to synchronously (`.send` effects, actions sent during the send).
  /// Past it the send fails with `RunawaySend` and, in a transactional store, is undone.
  public var maxActionsPerSend: Int
  /// Effects that may run at once. A send that would start more while this many run fails with
  /// `TooManyEffects` (undone in a transactional store) and starts none of its effects.
  public var maxEffectsInFlight: Int

  /// Limits of these sizes; the defaults are 10,000 each.
  public init(maxActionsPerSend: Int = 10_000, maxEffectsInFlight: Int = 10_000) {
    self.maxActionsPerSend = maxActionsPerSend
    self.maxEffectsInFlight = maxEffectsInFlight
  }

  /// 10,000 follow-up actions per send, 10,000 effects in flight.
  public static let `default` = SendLimits()
}

/// A send that kept producing follow-up actions past `SendLimits.maxActionsPerSend`.
public struct RunawaySend: Error, CustomStringConvertible {
  /// The `maxActionsPerSend` that was passed.
  public var limit: Int
  /// The first follow-up actions and the last ones, described.
  public var chain: [String]
  /// The error for the user, naming the chain of actions.
  public var description: String {
    "a send led to more than \(limit) follow-up actions and was stopped (does an action send itself?): \(chain.joined(separator: " → "))"
  }
}

/// A send whose effects would start while `SendLimits.maxEffectsInFlight` effects were running.
public struct TooManyEffects: Error, CustomStringConvertible {
  /// The `maxEffectsInFlight` that was reached.
  public var limit: Int
  /// The error for the user.
  public var description: String {
    "\(limit) effects are running, the most a store runs at once: this send's effects were not started (do effects start effects without end?)"
  }
}
