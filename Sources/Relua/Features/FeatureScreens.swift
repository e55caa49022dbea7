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
      let key = child.key
      let childState = state[key: key]
      switch child.kind {
      case .scope(let nested), .optional(let nested):
        if !childState.isNull { collect(nested, childState, prefix: prefix + key + ".", into: &screens) }
      case .lens, .forEach:
        break
      case .presented(let destination):
        guard !childState.isNull else { continue }
        let place = prefix + key
        switch destination {
        case .feature(let nested):
          screens.append(FeatureScreen(
            feature: nested, actionPrefix: place + ".", place: place, state: childState,
            closeAction: place + ".dismiss", popID: nil))
          collect(nested, childState, prefix: place + ".", into: &screens)
        case .alert(_, let style):
          screens.append(alertScreen(feature, childState, place: place, closeAction: place + ".dismiss", style: style))
        }
      case .presents(let kinds):
        guard let kind = DestinationReducer.kind(of: childState), case .feature(let nested)? = kinds[kind] else {
          if let kind = DestinationReducer.kind(of: childState), case .alert(_, let style)? = kinds[kind] {
            screens.append(alertScreen(
              feature, childState[key: kind], place: prefix + key + "." + kind, closeAction: prefix + key + ".dismiss", style: style))
          }
          continue
        }
        let place = prefix + key + "." + kind
        screens.append(FeatureScreen(
          feature: nested, actionPrefix: place + ".", place: place, state: childState[key: kind],
          closeAction: prefix + key + ".dismiss", popID: nil))
        collect(nested, childState[key: kind], prefix: place + ".", into: &screens)
      case .stack(let kinds):
        for element in childState.asIdentified.elements {
          let id = IdentifiedValues.id(of: element)
          guard let kind = DestinationReducer.kind(of: element), case .feature(let nested)? = kinds[kind] else { continue }
          let place = prefix + key + "[id=" + id.luaLiteral() + "]." + kind
          screens.append(FeatureScreen(
            feature: nested, actionPrefix: place + ".", place: place, state: element[key: kind],
            closeAction: prefix + key + ".popFrom", popID: id))
          collect(nested, element[key: kind], prefix: place + ".", into: &screens)
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
