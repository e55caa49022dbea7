import Relua

/// Every action a store of a feature accepts, as `relua types` lists them: its own, its
/// bindings (`binding.query`), and its children's by path (`counter.increment`,
/// `destination.results.remove`, `destination.dismiss`, `alert.retry`, `path.popFrom`), each
/// with its payload type.
///
/// Actions of a forEach or stack element name the element by id (`items[id=42].onAppear`): they
/// cannot be literal types, so they are kept apart, written with `[id=ID]`. A recursive feature
/// (a child that contains its parent) is followed once: deeper paths are not listed.
@MainActor
struct FeatureActionPaths {
  struct Action: Equatable {
    let path: String
    /// nil: no payload.
    let payload: LuaAnnotationType?
  }

  /// Actions without an element id, sorted by path.
  private(set) var actions: [Action] = []
  /// Element actions, as patterns with `[id=ID]` (`items[id=ID].onAppear`), sorted.
  private(set) var elementActions: [String] = []
  /// Whether a recursive feature's deeper paths were left out.
  private(set) var truncated = false

  /// `bindingType(feature, field)`: the type of a bindable field of a feature's state.
  /// `nestedBindings(feature, field)`: the fields below a bindable one (`item.title`) and their
  /// types, listed as `binding.item.title`.
  init(
    feature: FeatureDefinition, bindingType: (FeatureDefinition, String) -> LuaAnnotationType,
    nestedBindings: (FeatureDefinition, String) -> [(path: String, type: LuaAnnotationType)] = { _, _ in [] }
  ) {
    walk(
      feature, prefix: "", inElement: false, path: [ObjectIdentifier(feature)], bindingType: bindingType,
      nestedBindings: nestedBindings)
    actions.sort { $0.path < $1.path }
    elementActions.sort()
  }

  private mutating func add(_ path: String, _ payload: LuaAnnotationType?, inElement: Bool) {
    if inElement {
      elementActions.append(path)
    } else {
      actions.append(Action(path: path, payload: payload))
    }
  }

  private mutating func walk(
    _ feature: FeatureDefinition, prefix: String, inElement: Bool, path: [ObjectIdentifier],
    bindingType: (FeatureDefinition, String) -> LuaAnnotationType,
    nestedBindings: (FeatureDefinition, String) -> [(path: String, type: LuaAnnotationType)]
  ) {
    for (name, payload) in feature.actions {
      add(prefix + name, LuaAnnotationType(payload: payload), inElement: inElement)
    }
    for field in feature.bindable {
      add(prefix + "binding." + field, bindingType(feature, field), inElement: inElement)
      for nested in nestedBindings(feature, field) { add(prefix + "binding." + nested.path, nested.type, inElement: inElement) }
    }
    func into(_ child: FeatureDefinition, _ childPrefix: String, element: Bool) {
      let identity = ObjectIdentifier(child)
      guard !path.contains(identity) else {
        truncated = true
        return
      }
      walk(
        child, prefix: childPrefix, inElement: inElement || element, path: path + [identity], bindingType: bindingType,
        nestedBindings: nestedBindings)
    }
    func alert(_ buttons: [String: PayloadType], _ buttonPrefix: String, element: Bool) {
      for (button, payload) in buttons {
        add(buttonPrefix + button, LuaAnnotationType(payload: payload), inElement: inElement || element)
      }
    }
    for child in feature.children {
      let element = child.storage == .elements
      for place in child.places {
        let placePrefix = prefix + child.actionPrefix(id: element ? "ID" : nil, kind: place.kind)
        switch place.destination {
        case .feature(let target): into(target, placePrefix, element: element)
        case .alert(let buttons, _): alert(buttons, placePrefix, element: element)
        }
      }
      for control in child.controlActions {
        add(prefix + child.key + "." + control.name, LuaAnnotationType(payload: control.payload), inElement: inElement)
      }
    }
  }
}
