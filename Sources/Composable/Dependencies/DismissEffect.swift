/// Lets a presented feature (a destination or a stack element) dismiss itself from an effect:
/// `await dismiss()` makes the store receive the parent's `.dismiss` (or `.popFrom(id:)`).
/// The presenting operator installs the handler around the child's effects.
public struct DismissEffect: Sendable {
  /// Boxed: a task-local of a global-actor-isolated function type crashed in optimized builds
  /// (swift_task_localValuePush, Swift 6.3 on Linux); a class reference is a plain pointer.
  final class Handler: Sendable {
    let dismiss: @MainActor @Sendable () -> Void
    init(_ dismiss: @escaping @MainActor @Sendable () -> Void) { self.dismiss = dismiss }
  }

  @TaskLocal static var handler: Handler?

  /// The dismiss of whatever presented feature runs the effect (`DependencyValues.dismiss`).
  public init() {}

  /// Whether the running effect belongs to a presented feature.
  public static var isPresented: Bool { handler != nil }

  /// Dismisses the presented feature running this effect. From an effect of the root feature, the
  /// store itself is dismissed (`Store.isDismissed`, as TCA's TestStore: its effects are
  /// cancelled, later sends refused). Outside any store's effect, nothing is dismissed: a runtime
  /// warning names the call's place.
  @MainActor
  public func callAsFunction(fileID: StaticString = #fileID, line: UInt = #line) {
    callAsFunction(calledFrom: "\(fileID):\(line)")
  }

  /// `callAsFunction()` for a host whose caller's place is not Swift source: `place` is what the
  /// warning names (a script's `file:line`).
  @MainActor
  public func callAsFunction(calledFrom place: String) {
    guard let handler = Self.handler else {
      if let activity = EffectActivity.current {
        activity.dismissRoot(calledFrom: place, cancelled: Task.isCancelled)
        return
      }
      RuntimeWarnings.report(
        "A \"dismiss\" was called from an effect of a feature that is not presented (\(place)); nothing was dismissed."
      )
      return
    }
    guard !Task.isCancelled else { return }
    handler.dismiss()
  }
}

private enum DismissKey: DependencyKey {
  static let liveValue = DismissEffect()
  static let testValue: DismissEffect? = DismissEffect()
  static var name: String { "dismiss" }
}

extension DependencyValues {
  /// Dismisses the presented feature whose effect calls it: `await dismiss()` (a warning, from a
  /// feature not presented).
  public var dismiss: DismissEffect {
    get { self[DismissKey.self] }
    set { self[DismissKey.self] = newValue }
  }
}
