/// Gives a state the shapes its feature's composition implies: the collection of a `forEach` or a
/// `stack` is an identified collection even when the script wrote it as a plain `{}` or list, so
/// scripts need no `relua.identified` for composed collections, and JSON loads come out right.
@MainActor
package enum FeatureStateShape {
  package static func conform(_ state: Value, to feature: FeatureDefinition) -> Value {
    guard case .record = state else { return state }
    var state = state
    for child in feature.children {
      let key = child.key
      switch child.storage {
      case .elements:
        let elements = state[key: key].asIdentified.elements.map { conformPlace($0, of: child) }
        state[key: key] = .identified((try? IdentifiedValues(elements)) ?? IdentifiedValues())
      case .field, .optionalField:
        if !state[key: key].isNull { state[key: key] = conformPlace(state[key: key], of: child) }
      case .derived:
        break
      }
    }
    return state
  }

  /// One child state (a collection's element) of `child`: its feature's state conformed, inside
  /// `{ <kind> = state }` for a child that selects a kind; an alert's as it is.
  private static func conformPlace(_ value: Value, of child: FeatureChild) -> Value {
    guard child.selectsKind else {
      guard case .feature(let feature)? = child.onlyDestination else { return value }
      return conform(value, to: feature)
    }
    guard let kind = DestinationReducer.kind(of: value), case .feature(let feature)? = child.destinationsByKind[kind] else { return value }
    var value = value
    value[key: kind] = conform(value[key: kind], to: feature)
    return value
  }
}
