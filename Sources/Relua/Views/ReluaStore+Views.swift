import Composable

/// A screen's view as a tree a Swift program draws natively (docs/DSL.md, "Views"), and the
/// method that works one of its controls.
extension ReluaStore {
  /// The tree the screen's feature draws for its state now: its `view` built with `relua.ui`, a
  /// text view as one ``ReluaViewNode/text(_:)``; nil when the feature has no view, or for an alert
  /// or dialog (those are drawn from their state, `{ title, message, buttons }`). Its actions are
  /// paths from the root. Throws the view's error (a bad node names the script's line).
  public func view(of screen: ReluaScreen) throws -> ReluaViewNode? {
    let screens = FeatureScreens.screens(of: feature, state: state)
    guard let shown = screens.first(where: { $0.place == screen.place }), shown.alertStyle == nil else { return nil }
    return try object.host.screenTree(shown, in: screens)
  }

  /// The tree of the screen on top (see ``view(of:)``).
  public func topView() throws -> ReluaViewNode? {
    // The screens listed once (not once for the top and again to find it).
    let screens = FeatureScreens.screens(of: feature, state: state)
    guard let top = screens.last, top.alertStyle == nil else { return nil }
    return try object.host.screenTree(top, in: screens)
  }

  /// Works a control of a tree: a button or link sends its action with its payload; a text
  /// field, toggle, stepper or picker sends its binding with `input` (the new value). Validated
  /// as a typed action is: a bad path or payload throws, saying why, and the state is unchanged.
  /// A node that sends nothing (text, a stack…) throws.
  @discardableResult
  public func perform(_ node: ReluaViewNode, input: Value = .null) throws -> StoreTask {
    switch node {
    case .button(_, let action), .link(_, let action):
      return try send(action.path, action.payload)
    case .textField(_, let binding), .toggle(_, let binding), .stepper(_, let binding), .picker(_, let binding, _):
      return try send(binding.action, input)
    default:
      throw ReluaError.badAction("this view node sends no action (a button, link or bound control does)")
    }
  }
}
