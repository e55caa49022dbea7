import Lua

/// Reads the table a `view(state)` returned into a ``ReluaViewNode``, checking every value from
/// Lua (a hand-made table as much as one `relua.ui` built): a bad node, a tree deeper than
/// ``maxDepth`` or larger than ``maxNodes`` is an error naming the feature's view, never a crash.
///
/// Action paths come out from the store's root: the screen's prefix, then each `relua.ui.scope`'s
/// key and each keyed list's `key[id=…]`. A binding's value is read from the state the view drew.
@MainActor
struct ReluaViewTreeReader {
  /// Deeper than any screen a person reads; bounds the recursion for a cyclic or generated table.
  static let maxDepth = 64
  /// Nodes in one tree (a 10,000-row list of a few nodes each fits).
  static let maxNodes = 200_000

  let host: ReluaHost
  /// Whose view, for the errors: `Counter.view`.
  let viewName: String
  /// The screen's feature's actions: each control's action is checked as a send would check it
  /// (a button's payload too), so a misspelt action fails where the view is drawn.
  private let resolver: ActionResolver
  /// The screen's prefix, which the actions start with (`destination.results.`).
  private let screenPrefix: String
  private var nodeCount = 0

  init(host: ReluaHost, feature: FeatureDefinition, screenPrefix: String) {
    self.host = host
    self.viewName = feature.name + ".view"
    self.resolver = host.resolver(for: feature)
    self.screenPrefix = screenPrefix
  }

  /// The tree of `value` (text or a `relua.ui` node) for a screen at `prefix` showing `state`.
  mutating func read(_ value: LuaValue, prefix: String, state: Value) throws -> ReluaViewNode {
    try node(value, prefix: prefix, state: state, depth: 0, at: { "the view" })
  }

  /// `place` is built only for an error: a tree of thousands of nodes reads without making one.
  private func fail(_ message: String, at place: () -> String) -> ReluaError {
    ReluaError.usage("\(viewName): \(place()) \(message)")
  }

  private mutating func node(_ value: LuaValue, prefix: String, state: Value, depth: Int, at place: () -> String) throws -> ReluaViewNode {
    nodeCount += 1
    guard nodeCount <= Self.maxNodes else { throw fail("has more than \(Self.maxNodes) nodes", at: { "the tree" }) }
    guard depth < Self.maxDepth else { throw fail("is nested more than \(Self.maxDepth) deep", at: { "the tree" }) }
    if let text = value.stringValue { return .text(text) }
    guard let table = value.tableValue else {
      throw fail("must be text or a relua.ui node, got \(value.type)", at: place)
    }
    guard let kind = try table.rawGet("kind").stringValue else {
      throw fail("is a table without a kind: build nodes with relua.ui (relua.ui.text, relua.ui.vstack, …)", at: place)
    }
    func text(_ field: String) throws -> String {
      guard let text = try table.rawGet(.text(field)).stringValue else {
        throw fail("(\(kind)) needs text for \(field), got \(try table.rawGet(.text(field)).type)", at: place)
      }
      return text
    }
    func children() throws -> [ReluaViewNode] {
      guard let list = try table.rawGet("children").tableValue else { throw fail("(\(kind)) needs a list of children", at: place) }
      var nodes: [ReluaViewNode] = []
      for (position, child) in try list.array().enumerated() {
        nodes.append(try node(child, prefix: prefix, state: state, depth: depth + 1, at: { "\(place()) › \(kind) child \(position + 1)" }))
      }
      return nodes
    }
    func action() throws -> ReluaViewAction {
      let action = ReluaViewAction(path: prefix + (try text("action")), payload: try host.value(from: try table.rawGet("payload")))
      do {
        _ = try resolver.resolve(String(action.path.dropFirst(screenPrefix.count)), payload: action.payload)
      } catch {
        throw fail("(\(kind) '\((try? text("label")) ?? "")') sends an action the feature does not take: \(error)", at: place)
      }
      return action
    }
    func binding() throws -> ReluaViewBinding {
      let path = try text("binding")
      // Fields, and elements by id (`attendees[id="a1"].name`): read as a state path is.
      guard let steps = try? ActionResolver.parseStatePath(path),
            !steps.contains(where: { if case .index = $0 { true } else { false } })
      else { throw fail("(\(kind)) has a bad binding path '\(path)'", at: place) }
      let value = steps.reduce(state) { value, step in
        if case .id(let id) = step { return LuaLeafReducer.element(id: id, in: value)?.element ?? .null }
        return value[step]
      }
      let binding = ReluaViewBinding(action: prefix + "binding." + path, value: value)
      do {
        _ = try resolver.steps(String(binding.action.dropFirst(screenPrefix.count)))
      } catch {
        throw fail("(\(kind) '\((try? text("label")) ?? "")') is bound to a field the feature cannot set: \(error)", at: place)
      }
      return binding
    }
    switch kind {
    case "text": return .text(try text("text"))
    case "vstack": return .vstack(try children())
    case "hstack": return .hstack(try children())
    case "button": return .button(label: try text("label"), action: try action())
    case "link": return .link(label: try text("label"), action: try action())
    case "textField": return .textField(label: try text("label"), binding: try binding())
    case "toggle": return .toggle(label: try text("label"), binding: try binding())
    case "stepper": return .stepper(label: try text("label"), binding: try binding())
    case "picker":
      guard let options = try table.rawGet("options").tableValue else { throw fail("(picker) needs a list of options", at: place) }
      let texts = try options.array().map { option in
        guard let text = option.stringValue else { throw fail("(picker) options must be texts, got \(option.type)", at: place) }
        return text
      }
      return .picker(label: try text("label"), binding: try binding(), options: texts)
    case "section": return .section(title: try text("title"), children: try children())
    case "image": return .image(url: try text("url"), alt: try text("alt"))
    case "toolbar":
      let target = try table.rawGet("screen").stringValue.map { prefix + $0 } ?? ""
      return .toolbar(screen: target, items: try children())
    case "scope":
      let key = try text("key")
      return try node(try table.rawGet("content"), prefix: prefix + key + ".", state: state[key: key], depth: depth + 1, at: { "\(place()) › scope \(key)" })
    case "list":
      let key = try table.rawGet("key").stringValue
      guard let rows = try table.rawGet("rows").tableValue else { throw fail("(list) needs its rows", at: place) }
      var out: [ReluaViewRow] = []
      for (position, row) in try rows.array().enumerated() {
        guard let row = row.tableValue else { throw fail("(list) row \(position + 1) must be { id, content }", at: place) }
        let id = try host.value(from: try row.rawGet("id"))
        guard !id.isNull, !id.isContainer else { throw fail("(list) row \(position + 1) needs an id (a string or a number)", at: place) }
        var rowPrefix = prefix, rowState = state
        if let key {
          rowPrefix += key + "[id=" + id.luaLiteral() + "]."
          rowState = state[key: key][id: id]
        }
        let content = try node(try row.rawGet("content"), prefix: rowPrefix, state: rowState, depth: depth + 1, at: { "\(place()) › list row \(position + 1)" })
        out.append(ReluaViewRow(id: id, content: content))
      }
      return .list(out)
    default:
      throw fail("has an unknown kind '\(kind)' (text, vstack, hstack, button, link, textField, toggle, stepper, picker, list, section, image, scope, toolbar)", at: place)
    }
  }
}
