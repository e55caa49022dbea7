/// Every action a store accepts now, by concrete path (`counter.setCount`, `rows[id=3].toggle`,
/// `destination.results.dismiss`), for an inspector's send form: the feature's own and its
/// bindings, then its children's where the state holds them (an absent optional or destination
/// has none to send; each element of a collection is named by its id).
///
/// Bounded: at most `limit` actions and `elementLimit` elements per collection, and a feature
/// nested deeper than `depthLimit` is not followed (a recursive feature's state can nest far).
@MainActor
package enum InspectionActions {
  package static let limit = 400
  package static let elementLimit = 25
  static let depthLimit = 24

  package static func actions(of feature: FeatureDefinition, state: Value) -> [InspectionLive.Action] {
    var found: [InspectionLive.Action] = []
    walk(feature, state, prefix: "", depth: 0, into: &found)
    return found
  }

  private static func walk(_ feature: FeatureDefinition, _ state: Value, prefix: String, depth: Int, into found: inout [InspectionLive.Action]) {
    guard depth < depthLimit else { return }
    func add(_ path: String, _ payload: PayloadType?) {
      if found.count < limit { found.append(InspectionLive.Action(path: path, payload: payload)) }
    }
    for name in feature.actions.keys.sorted() {
      let payload = feature.actions[name]!
      add(prefix + name, payload.isNone ? nil : payload)
    }
    for field in feature.bindable.sorted() { add(prefix + "binding." + field, .any) }
    func buttons(_ actions: [String: PayloadType], _ buttonPrefix: String) {
      for name in actions.keys.sorted() { add(buttonPrefix + name, actions[name]!.isNone ? nil : actions[name]!) }
    }
    for child in feature.children {
      guard found.count < limit else { return }
      let instances = child.instances(in: state, limit: elementLimit)
      for instance in instances {
        let placePrefix = prefix + child.actionPrefix(id: instance.id?.luaLiteral(), kind: instance.kind)
        switch instance.destination {
        case .feature(let nested): walk(nested, instance.state, prefix: placePrefix, depth: depth + 1, into: &found)
        case .alert(let actions, _): buttons(actions, placePrefix)
        }
      }
      // (As `relua types` lists them: popFrom takes the first popped element's id.)
      for control in child.controlActions where !control.whilePresented || !instances.isEmpty {
        add(prefix + child.key + "." + control.name, control.payload.isNone ? nil : control.payload)
      }
    }
  }
}
