import Foundation

/// A screen's view as a tree of typed nodes: what a feature's `view(state)` builds with
/// `relua.ui` (docs/DSL.md, "Views"), read and checked by the host, for any renderer to draw —
/// the REPL's text (``terminalText(screenPrefix:)``), a Swift program's own views. A `view` that
/// returns text is one ``text(_:)`` node.
///
/// Actions are paths from the store's root (``ReluaViewAction``), so
/// ``ReluaStore/perform(_:input:)`` sends them as they are. Navigation (the stack, sheets,
/// alerts) is not in the tree: it is derived from state (``ReluaStore/screens``).
///
/// It is `Codable`: its JSON (``json(pretty:)``) has the Lua nodes' shape,
/// `{ "kind": "button", … }`, with sorted keys, so the same tree always gives the same text.
public indirect enum ReluaViewNode: Sendable, Equatable {
  /// Text, one line or several.
  case text(String)
  /// Children one below the other.
  case vstack([ReluaViewNode])
  /// Children side by side.
  case hstack([ReluaViewNode])
  /// A button that sends an action.
  case button(label: String, action: ReluaViewAction)
  /// A link: sends an action whose reducer pushes or presents a screen.
  case link(label: String, action: ReluaViewAction)
  /// A text field bound to a field of the state.
  case textField(label: String, binding: ReluaViewBinding)
  /// A switch bound to a boolean field.
  case toggle(label: String, binding: ReluaViewBinding)
  /// An integer field, one up or down.
  case stepper(label: String, binding: ReluaViewBinding)
  /// One of `options` for a text field.
  case picker(label: String, binding: ReluaViewBinding, options: [String])
  /// Rows of an identified collection, in order.
  case list(ReluaViewRows)
  /// A titled group.
  case section(title: String, children: [ReluaViewNode])
  /// An image by URL; `alt` is what a terminal shows.
  case image(url: String, alt: String)
  /// Buttons in a screen's bar (TCA's `.toolbar`). `screen` empty: this screen's own bar. Else
  /// the place of the screen it belongs to (`destination.add`, from the root): a presenter's
  /// view gives its sheet the Add and Cancel buttons, which send the presenter's actions. A
  /// renderer draws nothing for it where it stands; ``ReluaStore/view(of:)`` puts it (as an own
  /// bar) at the top of that screen's tree while the screen is shown.
  case toolbar(screen: String, items: [ReluaViewNode])
  /// Text for the REPL only (`relua.ui.replHint`): what to type there, e.g.
  /// `(=store:post("userDidTakeScreenshot"))`. The REPL and ``terminalText(screenPrefix:)`` show
  /// it as text; a page or a native view draws nothing for it (nobody types there).
  case replHint(String)

  /// The nodes right below this one (a list's rows' contents).
  public var children: [ReluaViewNode] {
    switch self {
    case .vstack(let nodes), .hstack(let nodes), .section(_, let nodes): return nodes
    case .list(let rows): return rows.map(\.content)
    case .toolbar(_, let items): return items
    default: return []
    }
  }

  /// The nodes a renderer draws, depth first: every node but those of a toolbar that belongs to
  /// another screen (see ``toolbar(screen:items:)``).
  public var drawnNodes: [ReluaViewNode] {
    if case .toolbar(let screen, _) = self, !screen.isEmpty { return [] }
    return [self] + children.flatMap(\.drawnNodes)
  }

  /// This node and every node below it, depth first.
  public var allNodes: [ReluaViewNode] { [self] + children.flatMap(\.allNodes) }

  /// The action this node sends when pressed or edited: a button's or link's; for a bound control,
  /// its binding's action (its payload is the input).
  public var actionPath: String? {
    switch self {
    case .button(_, let action), .link(_, let action): return action.path
    case .textField(_, let binding), .toggle(_, let binding), .stepper(_, let binding), .picker(_, let binding, _):
      return binding.action
    default: return nil
    }
  }

  /// The tree as JSON, keys sorted: the same tree gives the same text (a snapshot can store it).
  public func json(pretty: Bool = true) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }
}

/// A button's or link's action: a path from the store's root (`counter.increment`,
/// `todos[id=3].toggle`) and its payload.
public struct ReluaViewAction: Codable, Sendable, Equatable {
  /// The action's path from the root.
  public var path: String
  /// Its payload (`.null` for none).
  public var payload: Value

  /// An action by path and payload.
  public init(path: String, payload: Value = .null) {
    self.path = path
    self.payload = payload
  }

  private enum CodingKeys: String, CodingKey { case path, payload }

  /// The payload is encoded as its JSON text (a `Value` is not `Codable`).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    path = try container.decode(String.self, forKey: .path)
    let json = try container.decodeIfPresent(String.self, forKey: .payload)
    payload = try json.map { try Value(json: $0) } ?? .null
  }

  /// Encodes it as described above.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(path, forKey: .path)
    if !payload.isNull { try container.encode(try payload.json(), forKey: .payload) }
  }
}

/// A control's binding: the `binding.<field>` action that sets the field (a path from the root),
/// and the field's value when the view was drawn.
public struct ReluaViewBinding: Codable, Sendable, Equatable {
  /// The binding action's path from the root (`binding.title`, `destination.edit.binding.title`).
  public var action: String
  /// The field's value now.
  public var value: Value

  /// A binding by action path and value.
  public init(action: String, value: Value) {
    self.action = action
    self.value = value
  }

  private enum CodingKeys: String, CodingKey { case action, value }

  /// The value is encoded as its JSON text.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    action = try container.decode(String.self, forKey: .action)
    let json = try container.decodeIfPresent(String.self, forKey: .value)
    value = try json.map { try Value(json: $0) } ?? .null
  }

  /// Encodes it as described above.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(action, forKey: .action)
    if !value.isNull { try container.encode(try value.json(), forKey: .value) }
  }
}

/// One row of a list: its element's id and what it shows.
public struct ReluaViewRow: Codable, Sendable, Equatable {
  /// The row's id (its element's `id`).
  public var id: Value
  /// The row's content.
  public var content: ReluaViewNode {
    // Changed content (a patch applied inside the row) is no longer what the revision stands for.
    didSet { revision = nil }
  }
  /// Set by the tree reader on a `relua.ui.forEach` row: two rows with the same revision have the
  /// same content (a row reused from the cache), so comparing them is O(1). Not part of the
  /// row's value: equality, JSON and patches ignore it; setting `content` clears it.
  package var revision: UInt64?

  /// A row by id and content.
  public init(id: Value, content: ReluaViewNode) {
    self.id = id
    self.content = content
  }

  /// Equal ids and contents; rows of one revision are equal without comparing their contents.
  public static func == (lhs: ReluaViewRow, rhs: ReluaViewRow) -> Bool {
    if let revision = lhs.revision, revision == rhs.revision { return lhs.id == rhs.id }
    return lhs.id == rhs.id && lhs.content == rhs.content
  }

  private enum CodingKeys: String, CodingKey { case id, content }

  /// The id is encoded as its JSON text.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try Value(json: try container.decode(String.self, forKey: .id))
    content = try container.decode(ReluaViewNode.self, forKey: .content)
  }

  /// Encodes it as described above.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(try id.json(), forKey: .id)
    try container.encode(content, forKey: .content)
  }
}
