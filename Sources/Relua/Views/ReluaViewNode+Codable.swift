/// The JSON of a tree mirrors the Lua nodes: `{ "kind": "button", "label": "+", "action": { … } }`,
/// `{ "kind": "vstack", "children": [ … ] }` — what `relua.ui` builds, with actions as paths from
/// the root. Payloads, ids and binding values are their JSON text (a `Value` is not `Codable`).
extension ReluaViewNode: Codable {
  private enum CodingKeys: String, CodingKey {
    case kind, text, children, label, action, binding, options, rows, title, url, alt, screen
  }

  /// The node's `kind`, as `relua.ui` names it.
  public var kind: String {
    switch self {
    case .text: "text"
    case .vstack: "vstack"
    case .hstack: "hstack"
    case .button: "button"
    case .link: "link"
    case .textField: "textField"
    case .toggle: "toggle"
    case .stepper: "stepper"
    case .picker: "picker"
    case .list: "list"
    case .section: "section"
    case .image: "image"
    case .toolbar: "toolbar"
    case .replHint: "replHint"
    }
  }

  /// Decodes a node from its JSON shape; an unknown `kind` throws.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let kind = try container.decode(String.self, forKey: .kind)
    func string(_ key: CodingKeys) throws -> String { try container.decode(String.self, forKey: key) }
    switch kind {
    case "text": self = .text(try string(.text))
    case "vstack": self = .vstack(try container.decode([ReluaViewNode].self, forKey: .children))
    case "hstack": self = .hstack(try container.decode([ReluaViewNode].self, forKey: .children))
    case "button": self = .button(label: try string(.label), action: try container.decode(ReluaViewAction.self, forKey: .action))
    case "link": self = .link(label: try string(.label), action: try container.decode(ReluaViewAction.self, forKey: .action))
    case "textField": self = .textField(label: try string(.label), binding: try container.decode(ReluaViewBinding.self, forKey: .binding))
    case "toggle": self = .toggle(label: try string(.label), binding: try container.decode(ReluaViewBinding.self, forKey: .binding))
    case "stepper": self = .stepper(label: try string(.label), binding: try container.decode(ReluaViewBinding.self, forKey: .binding))
    case "picker":
      self = .picker(
        label: try string(.label), binding: try container.decode(ReluaViewBinding.self, forKey: .binding),
        options: try container.decode([String].self, forKey: .options))
    case "list": self = .list(try container.decode(ReluaViewRows.self, forKey: .rows))
    case "section": self = .section(title: try string(.title), children: try container.decode([ReluaViewNode].self, forKey: .children))
    case "image": self = .image(url: try string(.url), alt: try string(.alt))
    case "replHint": self = .replHint(try string(.text))
    case "toolbar":
      self = .toolbar(screen: try container.decodeIfPresent(String.self, forKey: .screen) ?? "", items: try container.decode([ReluaViewNode].self, forKey: .children))
    default:
      throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "unknown view node kind '\(kind)'")
    }
  }

  /// Encodes it as described above.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(kind, forKey: .kind)
    switch self {
    case .text(let text), .replHint(let text): try container.encode(text, forKey: .text)
    case .vstack(let nodes), .hstack(let nodes): try container.encode(nodes, forKey: .children)
    case .button(let label, let action), .link(let label, let action):
      try container.encode(label, forKey: .label)
      try container.encode(action, forKey: .action)
    case .textField(let label, let binding), .toggle(let label, let binding), .stepper(let label, let binding):
      try container.encode(label, forKey: .label)
      try container.encode(binding, forKey: .binding)
    case .picker(let label, let binding, let options):
      try container.encode(label, forKey: .label)
      try container.encode(binding, forKey: .binding)
      try container.encode(options, forKey: .options)
    case .list(let rows): try container.encode(rows, forKey: .rows)
    case .section(let title, let nodes):
      try container.encode(title, forKey: .title)
      try container.encode(nodes, forKey: .children)
    case .image(let url, let alt):
      try container.encode(url, forKey: .url)
      try container.encode(alt, forKey: .alt)
    case .toolbar(let screen, let items):
      if !screen.isEmpty { try container.encode(screen, forKey: .screen) }
      try container.encode(items, forKey: .children)
    }
  }
}
