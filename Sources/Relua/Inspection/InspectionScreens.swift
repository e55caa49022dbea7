import Composable
import Lua

/// The navigation as an inspector draws it: each screen on the way from the root to the top
/// (`FeatureScreens`: derived from state alone), with what the REPL would print for it.
@MainActor
package enum InspectionScreens {
  package static func screens(of feature: FeatureDefinition, state: Value, host: ReluaHost) -> [InspectionLive.Screen] {
    let screens = FeatureScreens.screens(of: feature, state: state)
    return screens.map { screen in
      let kind: InspectionLive.Screen.Kind
      switch screen.alertStyle {
      case .alert?: kind = .alert
      case .confirmationDialog?: kind = .confirmationDialog
      case nil:
        if screen.place.isEmpty {
          kind = .root
        } else if screen.popID != nil {
          kind = .pushed
        } else {
          kind = .presented
        }
      }
      var shown = InspectionLive.Screen(
        name: screen.breadcrumbName, place: screen.place, kind: kind, close: screen.closeAction,
        closePayload: screen.popID, text: text(of: screen, in: screens, host: host))
      shown.tasks = ScreenTasks.appearances(of: screen).map(\.action)
      return shown
    }
  }

  /// The screen's view (the script's Lua, under the state's limits), an alert's text, or its
  /// state when it has no view; a view that fails says so in its place.
  private static func text(of screen: FeatureScreen, in screens: [FeatureScreen], host: ReluaHost) -> String {
    if let style = screen.alertStyle { return AlertText.render(screen.state, style: style) }
    do {
      if let text = try host.screenText(screen, in: screens) { return Elision.standard.cut(text: text) }
    } catch let error as LuaError {
      return "(its view failed: \(Elision.standard.cut(text: error.message)))"
    } catch {
      return "(its view failed: \(error))"
    }
    return screen.state.luaLiteral(.multiLine.elided())
  }
}
