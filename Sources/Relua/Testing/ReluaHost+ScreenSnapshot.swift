import Lua

/// The text of a store's screen as the REPL shows it, for screen snapshots (`relua test`'s
/// `assert.screen(store)`): the breadcrumb line, then the top screen's view (an alert's text, or
/// its state when it has no view).
extension ReluaHost {
  /// The screen text of `store`, a `relua.Store` or a `relua.TestStore`; nil when it is neither.
  /// A view that raises throws (the test fails with its error).
  package func screenText(ofStore store: LuaValue) throws -> String? {
    guard let userdata = store.userdataValue else { return nil }
    if let live = try? userdata.object(as: LuaStoreObject.self) {
      return try screenText(FeatureScreens.screens(of: live.feature, state: live.store.state))
    }
    if let test = try? userdata.object(as: LuaTestStoreObject.self) {
      return try screenText(FeatureScreens.screens(of: test.feature, state: test.testStore.state))
    }
    return nil
  }

  /// `── Game › Results ──` and the top screen, as `FeatureConsole.showScreen` prints them (without colour).
  package func screenText(_ screens: [FeatureScreen]) throws -> String {
    guard let top = screens.last else { return "" }
    let header = "── " + screens.map(\.breadcrumbName).joined(separator: " › ") + " ──"
    let body: String
    if let style = top.alertStyle {
      body = AlertText.render(top.state, style: style)
    } else {
      body = try screenText(top, in: screens) ?? top.state.luaLiteral(.multiLine.elided())
    }
    return header + "\n" + body
  }
}
