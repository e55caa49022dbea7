/// `store:viewJSON()` for Lua (a Store's and a TestStore's): the top screen's tree as stable JSON.
extension ReluaHost {
  /// The tree of the screen on top of `state` as sorted-key JSON (actions as paths from the root),
  /// nil when it has no view or is an alert. What a snapshot stores beside the text.
  package func topViewJSON(of feature: FeatureDefinition, state: Value) throws -> String? {
    let screens = FeatureScreens.screens(of: feature, state: state)
    guard let top = screens.last, top.alertStyle == nil, let tree = try screenTree(top, in: screens)
    else { return nil }
    return try tree.json()
  }
}
