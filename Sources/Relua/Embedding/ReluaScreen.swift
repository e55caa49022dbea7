/// One screen of a store's navigation, as a Swift program sees it: derived from the state alone
/// (see `FeatureScreens`), plain values, so it can cross to any task.
public struct ReluaScreen: Sendable, Equatable {
  /// The feature's name; `Alert` or `Confirmation dialog` for those.
  public var name: String
  /// How the screen is reached: `""` for the root, `destination.results`, `path[0].detail`.
  public var place: String
  /// What its actions start with from the root (`destination.results.`).
  public var actionPrefix: String
  /// The screen's state (an alert's is `{ title, message, buttons }`).
  public var state: Value
  /// The action that closes it (`destination.dismiss`, `path.popFrom`), nil for the root.
  public var closeAction: String?
  /// The payload `closeAction` takes: a stack element's id for `path.popFrom`, `.null` otherwise
  /// (`store.send(screen.closeAction!, screen.closePayload)` closes it, as the REPL's `:back`).
  public var closePayload: Value
  /// The actions to send when the screen appears (its feature's `task = "onTask"`, then those of
  /// the features it scopes), as paths from the root; empty when it declares none. See
  /// `ReluaStore.runTask(of:)`.
  public var taskActions: [String]

  @MainActor
  init(_ screen: FeatureScreen) {
    name = screen.breadcrumbName
    place = screen.place
    actionPrefix = screen.actionPrefix
    state = screen.state
    closeAction = screen.closeAction
    closePayload = screen.popID ?? .null
    taskActions = ScreenTasks.appearances(of: screen).map(\.action)
  }
}
