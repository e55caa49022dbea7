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
      switch child.kind {
      case .forEach(let element):
        let elements = state[key: key].asIdentified.elements.map { conform($0, to: element) }
        state[key: key] = .identified((try? IdentifiedValues(elements)) ?? IdentifiedValues())
      case .stack(let kinds):
        let elements = state[key: key].asIdentified.elements.map { conformDestination($0, kinds) }
        state[key: key] = .identified((try? IdentifiedValues(elements)) ?? IdentifiedValues())
      case .scope(let nested), .optional(let nested), .presented(.feature(let nested)):
        if !state[key: key].isNull { state[key: key] = conform(state[key: key], to: nested) }
      case .presents(let kinds):
        if !state[key: key].isNull { state[key: key] = conformDestination(state[key: key], kinds) }
      case .lens, .presented(.alert):
        break
      }
    }
    return state
  }

  private static func conformDestination(_ value: Value, _ kinds: [String: FeatureChild.Destination]) -> Value {
    guard let kind = DestinationReducer.kind(of: value), case .feature(let feature)? = kinds[kind] else { return value }
    var value = value
    value[key: kind] = conform(value[key: kind], to: feature)
    return value
  }
}
