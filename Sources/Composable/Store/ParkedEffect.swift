/// An effect that waits for something only the store's owner provides — a test posting a
/// notification, feeding a stream — marked so that a test store treats it as it treats an effect
/// asleep on its test clock: nothing it can do happens until the test acts, so a `receive` it
/// would answer fails at once instead of waiting, and an advance does not wait for it.
///
/// The source marks it (`park`) when the effect starts waiting and unmarks it (`unpark`) before it
/// resumes the effect, in the same step as handing it the value: a test that posts and then
/// receives never sees the effect still parked.
public struct ParkedEffect: Sendable {
  let activity: EffectActivity?

  /// The effect running the current task (none outside an effect: marking it does nothing).
  public static var current: ParkedEffect { ParkedEffect(activity: EffectActivity.current) }

  /// Marks the effect as waiting for its owner (call it as the wait begins, from the effect's
  /// actor).
  public func park(isolation: isolated (any Actor)? = #isolation) {
    activity?.fellAsleep()
    activity?.announce(isolation: isolation)
  }

  /// Unmarks the effect: it is running again (call it before resuming it).
  public func unpark() { activity?.wokeUp() }
}
