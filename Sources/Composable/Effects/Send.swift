/// Sends actions from a `run` effect back into the store. After the effect is cancelled it does nothing.
@MainActor
public struct Send<Action>: Sendable {
  @usableFromInline
  let deliver: @MainActor (Action) -> Void
  let warning: @MainActor (String) -> Void

  /// A `Send` delivering each action to `send`.
  public init(_ send: @escaping @MainActor (Action) -> Void) {
    self.deliver = send
    self.warning = { RuntimeWarnings.report($0) }
  }

  init(deliver: @escaping @MainActor (Action) -> Void, warning: @escaping @MainActor (String) -> Void) {
    self.deliver = deliver
    self.warning = warning
  }

  /// `send(action)`: delivers the action to the store, unless the effect was cancelled.
  public func callAsFunction(_ action: Action) {
    guard !Task.isCancelled else { return }
    deliver(action)
  }

  /// A Send for a child's actions, embedding them into this one's.
  public func map<Child>(_ embed: @escaping (Child) -> Action) -> Send<Child> {
    let deliver = self.deliver
    return Send<Child>(deliver: { deliver(embed($0)) }, warning: warning)
  }

  /// Reports a runtime warning to the store that runs this effect.
  public func warn(_ message: String) { warning(message) }
}
