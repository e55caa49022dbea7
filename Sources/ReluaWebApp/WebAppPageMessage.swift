import Relua

/// What a page of `relua app` asks, one JSON text message each (docs/DESIGN-NOTES.md, "Web app"):
///
///     {"screen": PLACE, "at": [0, 2], "input": JSON}   work the node at `at` of the tree last sent
///                                                     for that screen (input: a bound control's new
///                                                     value; absent for a button or link)
///     {"close": PLACE}                                 close that screen (its `closeAction`)
///     {"alert": PLACE, "button": 1}                   press an alert's or dialog's button
///
/// Everything is checked here before anything uses it: the size, JSON, an object with exactly one
/// of those shapes, a path of at most `maximumDepth` indices each from 0 to `largestIndex`.
package enum WebAppPageMessage: Equatable, Sendable {
  case work(screen: String, at: [Int], input: Value)
  case close(screen: String)
  case alert(screen: String, button: Int)

  /// A message refused, saying why; `screen` and `at` when the message named them (the page shows
  /// the error next to that control).
  package struct Invalid: Error, Equatable, CustomStringConvertible {
    package var screen: String?
    package var at: [Int]?
    package var message: String
    package var description: String { message }
  }

  /// A page's message longer than this is refused unread (a text field's value is typed by a person).
  package static let maximumLength = 64 << 10
  /// The deepest path a page may name: the view's own limit (64 levels).
  package static let maximumDepth = 64
  /// The largest index in a path or of a button: a view has at most 200,000 nodes.
  package static let largestIndex = 200_000
  /// The longest screen place a page may name.
  package static let maximumPlaceLength = 1_000

  /// A JSON list as `Value(json:)` reads one: an array, an identified collection, `[]`.
  private static func list(_ value: Value) -> [Value]? {
    switch value {
    case .array(let elements): return elements
    case .identified(let collection): return collection.elements
    case .record(let record) where record.isEmpty: return []
    default: return nil
    }
  }

  package init(parsing text: String) throws(Invalid) {
    guard text.utf8.count <= Self.maximumLength else {
      throw Invalid(message: "a message must be at most \(Self.maximumLength) bytes")
    }
    let message: Value
    do {
      message = try Value(json: text)
    } catch {
      throw Invalid(message: "a message must be JSON: \(error)")
    }
    guard case .record(let fields) = message else { throw Invalid(message: "a message must be a JSON object") }
    let keys = Set(fields.keys)
    func place(_ key: String) throws(Invalid) -> String {
      guard case .string(let place) = message[key: key] else { throw Invalid(message: "\"\(key)\" must be a screen's place (text)") }
      guard place.utf8.count <= Self.maximumPlaceLength else {
        throw Invalid(message: "a screen's place is at most \(Self.maximumPlaceLength) bytes")
      }
      return place
    }
    func index(_ value: Value) -> Int? {
      guard case .integer(let number) = value, number >= 0, number <= Self.largestIndex else { return nil }
      return Int(number)
    }
    if keys.contains("screen") {
      guard keys.isSubset(of: ["screen", "at", "input"]) else {
        throw Invalid(message: "a control's message has \"screen\", \"at\" and maybe \"input\", nothing else")
      }
      let screen = try place("screen")
      guard let steps = Self.list(message[key: "at"]) else {
        throw Invalid(screen: screen, message: "\"at\" must be a list of child indices (the node's path)")
      }
      guard steps.count <= Self.maximumDepth else {
        throw Invalid(screen: screen, message: "\"at\" is at most \(Self.maximumDepth) indices long")
      }
      var at: [Int] = []
      for step in steps {
        guard let step = index(step) else {
          throw Invalid(screen: screen, message: "\"at\" holds child indices from 0 to \(Self.largestIndex)")
        }
        at.append(step)
      }
      self = .work(screen: screen, at: at, input: message[key: "input"])
    } else if keys.contains("close") {
      guard keys == ["close"] else { throw Invalid(message: "a close message has \"close\" only") }
      self = .close(screen: try place("close"))
    } else if keys.contains("alert") {
      guard keys == ["alert", "button"] else { throw Invalid(message: "an alert's message has \"alert\" and \"button\"") }
      let screen = try place("alert")
      guard let button = index(message[key: "button"]) else {
        throw Invalid(screen: screen, message: "\"button\" must be a button's index from 0")
      }
      self = .alert(screen: screen, button: button)
    } else {
      throw Invalid(message: "unknown message: {\"screen\", \"at\", \"input\"}, {\"close\"} or {\"alert\", \"button\"}")
    }
  }
}
