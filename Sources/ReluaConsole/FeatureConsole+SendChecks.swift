import Composable
import Relua

/// What `:ACTION` checks and says around a send, beyond the store's own errors: an element id
/// that is not there (one message, before anything is sent), an action that belongs to a screen
/// beneath the one on top (where it is, and that sending it may present that screen's child
/// anew), and a draft on top changed by an action from beneath it.
extension FeatureConsole {
  /// Why `action` (a path from the root) cannot reach its element: the first `[id=…]` whose id
  /// the collection at that place does not hold, with the ids it holds. Nil when each is there
  /// (or the path names no element by id).
  func missingElement(in action: String) -> String? {
    guard let tokens = try? ActionResolver.tokens(action, kind: "action") else { return nil }
    var current = currentState
    var place = ""
    for token in tokens {
      switch token {
      case .name(let name):
        place += (place.isEmpty ? "" : ".") + name
        current = current[key: name]
      case .bracket(let id, byID: true):
        guard let collection = current.identifiedValue else { return nil }
        guard collection[id: id] != nil else {
          let ids = collection.elements.prefix(10).map { IdentifiedValues.id(of: $0).luaLiteral() }
          let held = ids.isEmpty ? "it is empty" : "its ids: " + ids.joined(separator: ", ") + (collection.count > 10 ? ", … \(collection.count - 10) more" : "")
          return "cannot send \(action): \(place) has no element with the id \(id.luaLiteral()) (\(held)); nothing was sent"
        }
        place += "[id=" + id.luaLiteral() + "]"
        current = current[id: id]
      case .bracket:
        return nil
      }
    }
    return nil
  }

  /// The nearest screen beneath the one on top with an action `name` (its own or a scoped
  /// child's: a root's `syncUpsList.confirmAddButtonTapped` for a sheet's Add button, TCA's
  /// toolbar buttons being the presenter's actions), as `(its name, the full path)`.
  func screenBeneath(with name: String) -> (feature: String, path: String)? {
    let screens = store.screens
    guard screens.count > 1 else { return nil }
    for screen in screens.dropLast().reversed() {
      var candidates = [screen.actionPrefix + name]
      for child in screen.feature.children where child.actionsFollowKey {
        candidates.append(screen.actionPrefix + child.key + "." + name)
      }
      if let path = candidates.first(where: { (try? store.resolver.steps($0)) != nil }) {
        return (screen.feature.name, path)
      }
    }
    return nil
  }

  /// The hint added to a failed `:name` when a screen beneath the top has that action.
  func beneathHint(for name: String) -> String? {
    guard let top = store.screens.last, let beneath = screenBeneath(with: name) else { return nil }
    return "(\(name) is not an action of \(top.feature.name), the screen on top; it is \(beneath.feature)'s, beneath it "
      + "(covered, as a sheet covers its parent in TCA): :\(beneath.path) sends it)"
  }

  /// After `action` was sent from the prompt: when it came from outside the screen on top and
  /// changed that screen's state (a parent presenting its sheet again: the draft is replaced, as
  /// TCA's reducer would replace it), says so, since it reads as the REPL losing the draft.
  func noteScreenChangedFromBeneath(top: FeatureScreen?, action: String) {
    guard let top, !top.actionPrefix.isEmpty, !action.hasPrefix(top.actionPrefix),
      let now = store.screens.last, now.place == top.place, now.state != top.state
    else { return }
    let output = session.output
    output.write(output.styled(
      "(note: \(action) is not \(top.feature.name)'s action, yet it changed \(top.feature.name), the screen on top: "
        + "a reducer beneath it wrote its state — the diff above shows what was replaced there)", .yellow))
  }
}
