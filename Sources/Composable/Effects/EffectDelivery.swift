/// Which effect is delivering the action being reduced: what a host recording a session needs to
/// tell an action from an effect it recorded the start of from one of an effect that was already
/// running (`Store.onReduce`, `received`). Set around an effect's send, on the main actor.
@MainActor
package enum EffectDelivery {
  /// The store's id of the effect (`RunningEffect.id`) whose send is being reduced now, if any.
  package private(set) static var current: Int?

  static func from<R>(_ effect: Int, _ body: () -> R) -> R {
    let previous = current
    current = effect
    defer { current = previous }
    return body()
  }
}
