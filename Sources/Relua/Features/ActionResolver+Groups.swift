/// The DSL's forms of an action that are neither a feature's own name nor a child's path: a
/// group's action (`delegate.startMeeting`), a nested binding (`binding.item.title`,
/// `binding.item.rows[id=3].name`), and
/// actions sent to a kind that is only state (refused).
extension ActionResolver {
  /// `delegate.startMeeting`, `delegate.inner.done`: the action of a group (`relua.group`) of
  /// `feature`, found by its dotted path in `actions`. `rest` follows the group's name.
  static func walkGroup(
    _ group: String, _ rest: ArraySlice<FeatureAction.Step>, in feature: FeatureDefinition, text: String
  ) throws(ReluaError) -> PayloadType {
    var path = group
    var remaining = rest
    while case .name(let name)? = remaining.first {
      remaining = remaining.dropFirst()
      let next = path + "." + name
      if feature.actionGroups.contains(next) {
        path = next
        continue
      }
      guard let payload = feature.actions[next] else { break }
      guard remaining.isEmpty else { throw .badAction("'\(text)': '\(next)' is an action of \(feature.name), not a group") }
      return payload
    }
    // `path` is the deepest group reached: the message names what it holds.
    let members = feature.actions.keys.filter { $0.hasPrefix(path + ".") }.sorted().map { name -> String in
      let payload = feature.actions[name]!
      return payload == .none ? name : "\(name)(\(payload))"
    }
    throw .badAction("'\(text)': '\(path)' is a group of \(feature.name)'s actions; it has: \(members.joined(separator: ", "))")
  }

  /// `binding.item.title`, `binding.syncUp.attendees[id=3].name`: the fields below a bindable one
  /// are named by name, an element of a list by its id (`[id=…]`, after a field, as an action
  /// names a forEach's element); the path ends at a field. The state's own shape is checked when
  /// the binding is applied (`LuaLeafReducer`).
  static func checkNestedBinding(
    _ rest: ArraySlice<FeatureAction.Step>, of feature: FeatureDefinition, text: String
  ) throws(ReluaError) {
    var previousIsElement = false
    for step in rest {
      switch step {
      case .name: previousIsElement = false
      case .id(let id):
        guard !previousIsElement else {
          throw .badAction("'\(text)': [id=\(id.luaLiteral())] follows an element; name a field of the element first (binding.list[id=1].name)")
        }
        guard id.integerValue != nil || id.stringValue != nil else {
          throw .badAction("'\(text)': an element's id in a binding is an integer or a string, got \(id.luaLiteral())")
        }
        previousIsElement = true
      }
    }
    if previousIsElement {
      throw .badAction("'\(text)': a binding sets a field; name a field of the element (binding.list[id=1].name)")
    }
  }

  /// An action sent to a kind that is only state (`relua.stateOnly`): refused, naming the kind
  /// where it is (`path[id=1].meeting`: the action's steps but the `remaining` ones after it).
  static func stateOnlyRefusal(_ definition: FeatureDefinition, text: String, remaining: Int) -> ReluaError {
    let steps = (try? parse(text)) ?? []
    let place = FeatureAction(steps: steps.dropLast(remaining)).name
    return .badAction("'\(text)': \(place) is only state (relua.stateOnly \"\(definition.name)\"): it takes no actions")
  }
}
