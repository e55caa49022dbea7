@testable import Relua

/// One thing a user can do on a screen: an action path from the root, and the payloads to try.
struct ScreenAction {
  let path: String
  let payloads: [Value]
}

/// What a user can do on a screen, from its declared actions — what the REPL reaches from it
/// (`:help` lists them): the screen's own actions and bindings, those of the children it shows
/// in place (scopes, a present optional, the rows of a `forEach` by the ids the state has), and
/// `:back` when something can close it. An alert or a confirmation dialog offers its declared
/// buttons and `:back`. Presented destinations and stack elements are screens of their own: they
/// are explored once they are on top.
@MainActor
enum ScreenActions {
  /// How deep children shown in place are followed (a recursive feature shows rows of rows).
  static let inlineDepth = 3

  static func on(_ screen: FeatureScreen) -> [ScreenAction] {
    var actions: [ScreenAction] = []
    if screen.alertStyle != nil {
      for (name, type) in alertActions(of: screen.feature, at: screen.place).sorted(by: { $0.key < $1.key }) {
        actions.append(ScreenAction(path: screen.actionPrefix + name, payloads: RepresentativePayloads.of(type)))
      }
    } else {
      collect(screen.feature, state: screen.state, prefix: screen.actionPrefix, depth: 0, into: &actions)
    }
    if let close = screen.closeAction { actions.append(ScreenAction(path: close, payloads: [screen.popID ?? .null])) }
    return actions
  }

  private static func collect(
    _ feature: FeatureDefinition, state: Value, prefix: String, depth: Int, into actions: inout [ScreenAction]
  ) {
    for (name, type) in feature.actions.sorted(by: { $0.key < $1.key }) {
      actions.append(ScreenAction(path: prefix + name, payloads: RepresentativePayloads.of(type)))
    }
    for field in feature.bindable.sorted() {
      actions.append(ScreenAction(
        path: prefix + "binding." + field, payloads: RepresentativePayloads.binding(current: state[key: field])))
    }
    guard depth < inlineDepth else { return }
    for child in feature.children {
      let key = child.key
      switch child.kind {
      case .scope(let nested):
        collect(nested, state: state[key: key], prefix: prefix + key + ".", depth: depth + 1, into: &actions)
      case .lens(let nested, _, _):
        // Its state is derived (get); its own actions need none, and no shipped lens child has
        // bindings or rows, which would.
        collect(nested, state: .null, prefix: prefix + key + ".", depth: depth + 1, into: &actions)
      case .optional(let nested):
        let childState = state[key: key]
        if !childState.isNull { collect(nested, state: childState, prefix: prefix + key + ".", depth: depth + 1, into: &actions) }
      case .forEach(let element):
        // The first and the last row (paging and "the last one appeared" live at the end).
        let rows = state[key: key].asIdentified.elements
        for row in [rows.first, rows.count > 1 ? rows.last : nil].compactMap({ $0 }) {
          let id = IdentifiedValues.id(of: row).luaLiteral()
          collect(element, state: row, prefix: "\(prefix)\(key)[id=\(id)].", depth: depth + 1, into: &actions)
        }
      case .presented, .presents, .stack:
        break
      }
    }
  }

  /// The declared buttons of the alert (or dialog) `presenter` shows at `place`
  /// (`alert`, `destination.alert`, `path[0].detail.alert`).
  private static func alertActions(of presenter: FeatureDefinition, at place: String) -> [String: PayloadType] {
    func placed(_ key: String) -> Bool { place == key || place.hasSuffix("." + key) }
    for child in presenter.children {
      switch child.kind {
      case .presented(.alert(let actions, _)) where placed(child.key):
        return actions
      case .presents(let kinds):
        for (kind, destination) in kinds {
          if case .alert(let actions, _) = destination, placed(child.key + "." + kind) { return actions }
        }
      default:
        continue
      }
    }
    return [:]
  }
}
