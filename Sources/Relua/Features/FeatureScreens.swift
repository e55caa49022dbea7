/// What is on screen, derived from state alone: the root feature, then every presented destination
/// and stack element, depth first (the last one is on top). The REPL shows the top screen and a
/// breadcrumb (`Game › Results`); `:back` dismisses or pops it.
package struct FeatureScreen {
  package let feature: FeatureDefinition
  /// What the screen's actions start with from the root (`destination.results.`), "" for the root.
  package let actionPrefix: String
  /// How the screen is reached: `destination.results`, `path[0].detail`.
  package let place: String
  package let state: Value
  /// The action that closes it (`destination.dismiss`, `path.popFrom` with `popID`), nil for the root.
  package let closeAction: String?
  package let popID: Value?
  /// For an alert or a confirmation dialog: which (its state is `{ title, message, buttons }`,
  /// shown over its presenter, whose feature this screen names).
  package var alertStyle: FeatureChild.AlertStyle? = nil

  /// The feature's name, or for an alert (dialog) shown over it, `Alert` (`Confirmation dialog`).
  package var breadcrumbName: String {
    switch alertStyle {
    case nil: return feature.name
    case .alert?: return "Alert"
    case .confirmationDialog?: return "Confirmation dialog"
    }
  }
}

@MainActor
package enum FeatureScreens {
  package static func screens(of feature: FeatureDefinition, state: Value) -> [FeatureScreen] {
    var screens = [FeatureScreen(feature: feature, actionPrefix: "", place: "", state: state, closeAction: nil, popID: nil)]
    collect(feature, state, prefix: "", into: &screens)
    return screens
  }

  private static func collect(_ feature: FeatureDefinition, _ state: Value, prefix: String, into screens: inout [FeatureScreen]) {
    for child in feature.children {
      // A screen is a path: a collection's elements (a forEach's) are not followed, nor is a lens.
      guard child.isNavigation || (child.storage != .elements && child.storage != .derived) else { continue }
      // What closes a screen below the child: the first of its own actions (dismiss, popFrom).
      let closeAction = child.controlActions.first.map { prefix + child.key + "." + $0.name }
      for instance in child.instances(in: state) where !instance.state.isNull {
        let placePrefix = prefix + child.actionPrefix(id: instance.id?.luaLiteral(), kind: instance.kind)
        let place = String(placePrefix.dropLast())
        switch instance.destination {
        case .feature(let nested):
          if let closeAction {
            screens.append(FeatureScreen(
              feature: nested, actionPrefix: placePrefix, place: place, state: instance.state,
              closeAction: closeAction, popID: instance.id))
          }
          collect(nested, instance.state, prefix: placePrefix, into: &screens)
        case .alert(_, let style):
          // (A stack's alert element is no screen.)
          guard let closeAction, instance.id == nil else { continue }
          screens.append(alertScreen(feature, instance.state, place: place, closeAction: closeAction, style: style))
        }
      }
    }
  }

  /// An alert shows over its presenter; it is a screen of the presenter's feature with the alert state.
  private static func alertScreen(
    _ presenter: FeatureDefinition, _ alert: Value, place: String, closeAction: String, style: FeatureChild.AlertStyle
  ) -> FeatureScreen {
    FeatureScreen(
      feature: presenter, actionPrefix: place + ".", place: place, state: alert,
      closeAction: closeAction, popID: nil, alertStyle: style)
  }
}
