import Foundation

/// How the REPL (and `store:view()`) draws a tree: text, with each control showing the command
/// that works it — a button `[+ :increment]`, a text field `Title: [Retro] (:binding.title "…")`.
extension ReluaViewNode {
  /// The tree as lines of text; commands are written relative to `screenPrefix` (the top screen's
  /// `actionPrefix`), as the REPL takes them.
  public func terminalText(screenPrefix: String = "") -> String {
    lines(screenPrefix).joined(separator: "\n")
  }

  private func lines(_ prefix: String) -> [String] {
    func command(_ path: String) -> String {
      ":" + (path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path)
    }
    func command(_ action: ReluaViewAction) -> String {
      command(action.path) + (action.payload.isNull ? "" : " " + action.payload.luaLiteral())
    }
    switch self {
    case .text(let text), .replHint(let text):
      return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    case .vstack(let nodes):
      return nodes.flatMap { $0.lines(prefix) }
    case .hstack(let nodes):
      // Side by side: line n of each child, joined; a shorter child leaves its place blank.
      let columns = nodes.map { $0.lines(prefix) }
      let widths = columns.map { $0.map(\.count).max() ?? 0 }
      let height = columns.map(\.count).max() ?? 0
      return (0..<height).map { row in
        columns.indices.map { column in
          let line = row < columns[column].count ? columns[column][row] : ""
          // Padded by characters (`padding(toLength:)` counts UTF-16 units and cut a line with an emoji).
          return column == columns.count - 1 ? line : line + String(repeating: " ", count: widths[column] - line.count)
        }.joined(separator: " ").replacingTrailingSpaces()
      }
    case .button(let label, let action):
      return ["[\(label) \(command(action))]"]
    case .link(let label, let action):
      return ["[\(label) › \(command(action))]"]
    case .textField(let label, let binding):
      let text = binding.value.stringValue ?? binding.value.luaLiteral()
      return ["\(label): [\(text)] (\(command(binding.action)) \"…\")"]
    case .toggle(let label, let binding):
      let on = binding.value.boolValue ?? false
      return ["[\(on ? "x" : " ")] \(label) (\(command(binding.action)) \(!on))"]
    case .stepper(let label, let binding):
      let n = binding.value.integerValue ?? 0
      let set = command(binding.action)
      return ["\(label): \(n) [- \(set) \(n - 1)] [+ \(set) \(n + 1)]"]
    case .picker(let label, let binding, let options):
      let chosen = binding.value.stringValue ?? binding.value.luaLiteral()
      let choices = options.map { Value.string($0).luaLiteral() }.joined(separator: "|")
      return ["\(label): <\(chosen)> (\(command(binding.action)) \(choices))"]
    case .list(let rows):
      return rows.flatMap { $0.content.lines(prefix) }
    case .section(let title, let nodes):
      return [title] + nodes.flatMap { $0.lines(prefix) }.map { $0.isEmpty ? $0 : "  " + $0 }
    case .image(_, let alt):
      return ["[image: \(alt)]"]
    case .toolbar(let screen, let items):
      // Another screen's bar is drawn on that screen; this screen's: its buttons on one line.
      return screen.isEmpty ? ReluaViewNode.hstack(items).lines(prefix) : []
    }
  }

  /// Every command the tree shows, as the REPL takes them (`:increment`, `:binding.title`), in
  /// order, each once: what `:help` lists and Tab completes.
  public func commands(screenPrefix: String = "") -> [String] {
    var seen = Set<String>()
    return drawnNodes.compactMap { node -> String? in
      guard let path = node.actionPath else { return nil }
      let command = ":" + (path.hasPrefix(screenPrefix) ? String(path.dropFirst(screenPrefix.count)) : path)
      return seen.insert(command).inserted ? command : nil
    }
  }
}

extension String {
  fileprivate func replacingTrailingSpaces() -> String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
