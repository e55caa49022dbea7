import Relua

/// What a page asks of the inspected store, one JSON text message each, with a number of the
/// page's choosing that its answer (`InspectorMessage.result`) carries back:
///
///     {"type": "send", "request": 1, "action": "counter.setCount", "payload": 5}   (payload: JSON; absent: none)
///     {"type": "jump", "request": 2, "index": 3}      the state after entry 3 put back (the REPL follows)
///     {"type": "stateAt", "request": 3, "index": 3}   the state after entry 3, to look at
///     {"type": "cancel", "request": 4, "effect": 7}   cancel effect 7
///     {"type": "export", "request": 5}                the session as a test: {"fileName", "text"}
///
/// Anything else — not JSON, no known type, a field missing or of the wrong kind — is refused
/// with an `error` answer, and nothing happens.
struct InspectorRequest {
  enum Kind {
    case send(action: String, payload: Value)
    case jump(entry: Int)
    case stateAt(entry: Int)
    case cancel(effect: Int)
    case export
  }

  struct Invalid: Error {
    var request: Int64?
    var message: String
  }

  /// A page's message longer than this is refused unread (a payload is typed by a person).
  static let maximumLength = 1 << 20
  /// The largest entry or effect number a page may name: the largest exact in a JavaScript number.
  static let largestNumber = 1 << 53

  var id: Int64
  var kind: Kind

  init(parsing text: String) throws(Invalid) {
    guard text.utf8.count <= Self.maximumLength else { throw Invalid(message: "a request must be at most \(Self.maximumLength) bytes") }
    let message: Value
    do {
      message = try Value(json: text)
    } catch {
      throw Invalid(message: "a request must be JSON: \(error)")
    }
    guard case .record = message else { throw Invalid(message: "a request must be a JSON object") }
    guard case .integer(let id) = message[key: "request"] else { throw Invalid(message: "a request needs a \"request\" number") }
    // Entries count from 1, effects from 0; anything else (negative, past 2^53, which a page's
    // numbers cannot hold exactly) is refused here, before it reaches any arithmetic.
    func integer(_ field: String, from first: Int) throws(Invalid) -> Int {
      guard case .integer(let value) = message[key: field], let exact = Int(exactly: value) else {
        throw Invalid(request: id, message: "\"\(message[key: "type"].stringValue ?? "")\" needs an integer \"\(field)\"")
      }
      guard exact >= first, exact <= Self.largestNumber else {
        throw Invalid(request: id, message: "\"\(field)\" must be from \(first) to \(Self.largestNumber), not \(exact)")
      }
      return exact
    }
    self.id = id
    switch message[key: "type"].stringValue {
    case "send":
      guard let action = message[key: "action"].stringValue, !action.isEmpty else {
        throw Invalid(request: id, message: "\"send\" needs an \"action\" (a path from the root, like counter.increment)")
      }
      kind = .send(action: action, payload: message[key: "payload"])
    case "jump": kind = .jump(entry: try integer("index", from: 1))
    case "stateAt": kind = .stateAt(entry: try integer("index", from: 1))
    case "cancel": kind = .cancel(effect: try integer("effect", from: 0))
    case "export": kind = .export
    case let other:
      throw Invalid(request: id, message: "unknown request type \(other.map { "\"\($0)\"" } ?? "(none)"): send, jump, stateAt, cancel or export")
    }
  }
}
