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
  init(feature: FeatureDefinition, bindingType: (FeatureDefinition, String) -> LuaAnnotationType) {
    walk(feature, prefix: "", inElement: false, path: [ObjectIdentifier(feature)], bindingType: bindingType)
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
    bindingType: (FeatureDefinition, String) -> LuaAnnotationType
  ) {
    for (name, payload) in feature.actions {
      add(prefix + name, LuaAnnotationType(payload: payload), inElement: inElement)
    }
    for field in feature.bindable {
      add(prefix + "binding." + field, bindingType(feature, field), inElement: inElement)
    }
    func into(_ child: FeatureDefinition, _ childPrefix: String, element: Bool) {
      let identity = ObjectIdentifier(child)
      guard !path.contains(identity) else {
        truncated = true
        return
      }
      walk(child, prefix: childPrefix, inElement: inElement || element, path: path + [identity], bindingType: bindingType)
    }
    func alert(_ buttons: [String: PayloadType], _ buttonPrefix: String, element: Bool) {
      for (button, payload) in buttons {
        add(buttonPrefix + button, LuaAnnotationType(payload: payload), inElement: inElement || element)
      }
    }
    for child in feature.children {
      let key = prefix + child.key
      switch child.kind {
      case .scope(let target), .lens(let target, _, _), .optional(let target):
        into(target, key + ".", element: false)
      case .forEach(let target):
        into(target, key + "[id=ID].", element: true)
      case .presented(let destination):
        switch destination {
        case .feature(let target): into(target, key + ".", element: false)
        case .alert(let buttons, _): alert(buttons, key + ".", element: false)
        }
        add(key + ".dismiss", nil, inElement: inElement)
      case .presents(let kinds):
        for kind in kinds.keys.sorted() {
          switch kinds[kind]! {
          case .feature(let target): into(target, key + "." + kind + ".", element: false)
          case .alert(let buttons, _): alert(buttons, key + "." + kind + ".", element: false)
          }
        }
        add(key + ".dismiss", nil, inElement: inElement)
      case .stack(let kinds):
        for kind in kinds.keys.sorted() {
          switch kinds[kind]! {
          case .feature(let target): into(target, key + "[id=ID]." + kind + ".", element: true)
          case .alert(let buttons, _): alert(buttons, key + "[id=ID]." + kind + ".", element: true)
          }
        }
        // popFrom takes the id of the first element to pop; push an element `{ id = n, <kind> = state }`.
        add(key + ".popFrom", .name("integer"), inElement: inElement)
        add(key + ".push", .table, inElement: inElement)
      }
    }
  }
}
