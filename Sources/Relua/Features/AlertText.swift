/// How the REPL shows an alert or a confirmation dialog: its title, message and buttons, each
/// button with the command that taps it (its action, relative to the alert's screen).
///
///     Alert!
///     This is an alert
///       :confirm   OK
///       :back      Cancel
package enum AlertText {
  package static func render(_ state: Value, style: FeatureChild.AlertStyle) -> String {
    var lines: [String] = []
    let title = state[key: "title"].stringValue
    if let title { lines.append(title) } else if style == .confirmationDialog { lines.append("(no title)") }
    if let message = state[key: "message"].stringValue { lines.append(message) }
    var buttons: [(command: String, label: String)] = []
    for button in state[key: "buttons"].listElements ?? [] {
      let label = button[key: "label"].stringValue ?? button[key: "title"].stringValue ?? "?"
      let command = button[key: "action"].stringValue.map { ":" + $0 } ?? ":back"
      buttons.append((command, label))
    }
    if buttons.isEmpty { buttons.append((":back", "OK")) }
    let width = buttons.map(\.command.count).max() ?? 0
    for button in buttons {
      lines.append("  " + button.command + String(repeating: " ", count: width - button.command.count + 3) + button.label)
    }
    return lines.joined(separator: "\n")
  }
}
