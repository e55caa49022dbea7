import Relua

/// One screen as the page draws it: where it is, what closes it, what kind of layer it is and
/// what it shows — its view's tree, or an alert's title, message and buttons.
struct WebAppScreen: Encodable, Equatable {
  enum Kind: String, Encodable {
    /// The feature's own screen.
    case root
    /// An element of a navigation stack (pushed): drawn in its presenter's layer, with Back.
    case stack
    /// A presented destination: a panel over its presenter, with a close button.
    case sheet
    /// An alert or a confirmation dialog: a modal of buttons.
    case alert
  }

  struct Alert: Encodable, Equatable {
    var title: String?
    var message: String?
    var buttons: [String]
  }

  var place: String
  var name: String
  var closeAction: String?
  var kind: Kind
  /// Its view (a text view is one text node; a feature without a view shows its state as JSON).
  var tree: ReluaViewNode?
  var alert: Alert?

  /// The same screen (a patch of its tree will do), not a new one at the same place.
  func isSameScreen(as other: WebAppScreen) -> Bool {
    place == other.place && name == other.name && closeAction == other.closeAction && kind == other.kind
  }

  /// The names `ReluaScreen` gives alerts and dialogs.
  static let alertNames: Set<String> = ["Alert", "Confirmation dialog"]

  @MainActor
  init(_ screen: ReluaScreen, of store: ReluaStore) {
    place = screen.place
    name = screen.name
    closeAction = screen.closeAction
    let view: ReluaViewNode?
    do {
      view = try store.view(of: screen)
    } catch {
      view = .text("⚠ \(error)")
    }
    if view == nil, Self.alertNames.contains(screen.name), screen.state.recordValue != nil {
      kind = .alert
      alert = Alert(
        title: screen.state[key: "title"].stringValue, message: screen.state[key: "message"].stringValue,
        buttons: Self.buttons(of: screen.state).map(\.label))
      tree = nil
      return
    }
    if screen.place.isEmpty {
      kind = .root
    } else if screen.closeAction?.hasSuffix("popFrom") == true {
      kind = .stack
    } else {
      kind = .sheet
    }
    tree = view ?? .text((try? screen.state.json(pretty: true)) ?? "")
    alert = nil
  }

  /// An alert's buttons, as the REPL shows them: a label, and the action (relative to the alert's
  /// screen) or nil for one that only dismisses; an alert without buttons has OK.
  static func buttons(of state: Value) -> [(label: String, action: String?)] {
    var buttons: [(String, String?)] = []
    let listed: [Value]
    switch state[key: "buttons"] {
    case .array(let elements): listed = elements
    case .identified(let collection): listed = collection.elements
    default: listed = []
    }
    for button in listed {
      let label = button[key: "label"].stringValue ?? button[key: "title"].stringValue ?? "?"
      buttons.append((label, button[key: "action"].stringValue))
    }
    return buttons.isEmpty ? [("OK", nil)] : buttons
  }
}
