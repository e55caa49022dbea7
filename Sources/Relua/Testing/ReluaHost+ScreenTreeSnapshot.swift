import Lua

/// The tree of a store's screen for screen snapshots (`assert.screen(store)` stores it as
/// `<name>.json` beside the text's `<name>.txt`).
extension ReluaHost {
  /// The top screen's tree of `store` (a `relua.Store` or a `relua.TestStore`) as pretty JSON with
  /// sorted keys (``ReluaViewNode/json(pretty:)``), actions as paths from the root; nil when the
  /// screen has no tree to add to its text: an alert or dialog, a feature without a view, or a
  /// view that is only text (a text view is one text node: its `.txt` says it all).
  package func screenTreeJSON(ofStore store: LuaValue) throws -> String? {
    guard let userdata = store.userdataValue else { return nil }
    let feature: FeatureDefinition
    let state: Value
    if let live = try? userdata.object(as: LuaStoreObject.self) {
      (feature, state) = (live.feature, live.store.state)
    } else if let test = try? userdata.object(as: LuaTestStoreObject.self) {
      (feature, state) = (test.feature, test.testStore.state)
    } else {
      return nil
    }
    let screens = FeatureScreens.screens(of: feature, state: state)
    guard let top = screens.last, top.alertStyle == nil, let tree = try screenTree(top, in: screens)
    else { return nil }
    if case .text = tree { return nil }
    return try tree.json(pretty: true)
  }
}
