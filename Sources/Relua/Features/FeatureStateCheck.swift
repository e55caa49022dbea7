/// Checks a state given from outside — `relua.Store(F, { state = … })`, `json = …`, the REPL's
/// `:load` — against the shapes its feature's composition needs, before it replaces anything: the
/// root and every scoped child a record, a forEach or stack a list of records with distinct ids,
/// a destination one record naming a declared kind. A state of the wrong shape would otherwise be
/// accepted and fail every action after it (or, for a root that is a list, the engine's own
/// assumptions). The message names the path and the feature.
@MainActor
package enum FeatureStateCheck {
  package static func check(_ state: Value, against feature: FeatureDefinition) throws {
    try check(state, feature, path: [])
  }

  private static func fail(_ path: ValuePath, _ message: String) -> ReluaError {
    .usage("\(describePath(path)): \(message)")
  }

  private static func kindName(_ value: Value) -> String {
    switch value {
    case .null: return "nil"
    case .boolean: return "a boolean"
    case .integer, .float: return "a number"
    case .string: return "a string"
    case .array, .identified: return "a list"
    case .record: return "a table with named fields"
    }
  }

  private static func check(_ state: Value, _ feature: FeatureDefinition, path: ValuePath) throws {
    guard case .record = state else {
      throw fail(path, "\(feature.name)'s state must be a table with named fields, got \(kindName(state))")
    }
    for child in feature.children {
      let key = child.key
      let value = state[key: key]
      let place = path + [.key(key)]
      switch child.storage {
      case .derived:
        break
      case .field:
        try checkPlace(value, of: child, path: place, inElement: false)
      case .optionalField:
        if !value.isNull { try checkPlace(value, of: child, path: place, inElement: false) }
      case .elements:
        let what = child.selectsKind ? "stack" : "forEach of \(child.features.first?.name ?? child.key)"
        for (position, element) in try elements(value, at: place, of: what).enumerated() {
          try checkPlace(element, of: child, path: place + [.index(position)], inElement: true)
        }
      }
    }
  }

  /// One child state (a collection's element, `inElement`) of `child`.
  private static func checkPlace(_ value: Value, of child: FeatureChild, path: ValuePath, inElement: Bool) throws {
    guard child.selectsKind else {
      switch child.onlyDestination! {
      case .feature(let nested): try check(value, nested, path: path)
      case .alert(_, let style):
        guard case .record = value else { throw fail(path, "a \(style.rawValue)'s state must be a table, got \(kindName(value))") }
      }
      return
    }
    if inElement {
      guard case .integer = IdentifiedValues.id(of: value) else {
        throw fail(path, "a stack element's id must be an integer")
      }
    }
    try checkDestination(value, child.destinationsByKind, path: path, allowingID: inElement)
  }

  /// The elements of a forEach or stack: nil (none), or a list of records with distinct ids.
  private static func elements(_ value: Value, at path: ValuePath, of what: String) throws -> [Value] {
    let elements: [Value]
    switch value {
    case .null: return []
    case .record(let record) where record.isEmpty: return []
    case .array(let list): elements = list
    case .identified(let collection): elements = collection.elements
    default: throw fail(path, "a \(what) needs a list of tables with ids, got \(kindName(value))")
    }
    var seen = Set<Value>()
    for (position, element) in elements.enumerated() {
      let id = IdentifiedValues.id(of: element)
      switch id {
      case .integer, .string: break
      default: throw fail(path + [.index(position)], "each element needs an id (an integer or a string), got \(kindName(id))")
      }
      guard seen.insert(id).inserted else { throw fail(path + [.index(position)], "the id \(id) is used twice") }
    }
    return elements
  }

  /// A destination: `{ <kind> = state }` with a declared kind (and a stack element's `id`).
  private static func checkDestination(
    _ value: Value, _ kinds: [String: FeatureChild.Destination], path: ValuePath, allowingID: Bool
  ) throws {
    let declared = kinds.keys.sorted().joined(separator: ", ")
    guard case .record(let record) = value else {
      throw fail(path, "a destination is a table { <kind> = state } (kinds: \(declared)), got \(kindName(value))")
    }
    let keys = record.keys.filter { !(allowingID && $0 == "id") }
    guard keys.count == 1, let kind = keys.first, let destination = kinds[kind] else {
      throw fail(path, "a destination names exactly one of its kinds (\(declared)), got \(keys.isEmpty ? "none" : keys.joined(separator: ", "))")
    }
    switch destination {
    case .feature(let feature): try check(record[kind], feature, path: path + [.key(kind)])
    case .alert:
      guard case .record = record[kind] else { throw fail(path + [.key(kind)], "an alert's state must be a table, got \(kindName(record[kind]))") }
    }
  }

  /// A state loaded to replace `current` (the REPL's `:load`): besides the composition, each
  /// field both have holds the same kind of value — a number where a number was, a table where a
  /// table was (an empty one fits either kind of table) — so a file saved from another feature,
  /// or edited by hand, is refused instead of making every action fail. Fields only one of them
  /// has are free (optional fields come and go).
  package static func checkKinds(_ loaded: Value, like current: Value) throws {
    try checkKinds(loaded, like: current, path: [])
  }

  private static func checkKinds(_ loaded: Value, like current: Value, path: ValuePath) throws {
    switch (loaded, current) {
    case (.null, _), (_, .null), (.boolean, .boolean), (.string, .string):
      return
    case (.integer, .integer), (.integer, .float), (.float, .float), (.float, .integer):
      return
    case (.record(let record), .record(let template)):
      for field in record.fields where !template[field.key].isNull {
        try checkKinds(field.value, like: template[field.key], path: path + [.key(field.key)])
      }
      return
    default:
      break
    }
    switch (list(loaded), list(current)) {
    case (let elements?, let template?):
      guard let first = template.first else { return }
      for (position, element) in elements.enumerated() {
        try checkKinds(element, like: first, path: path + [.index(position)])
      }
    case (let elements?, nil):
      // A list where a record was: only when one of them is empty (`{}` is either).
      guard case .record(let template) = current, elements.isEmpty || template.isEmpty else {
        throw kindMismatch(loaded, current, path)
      }
    case (nil, let template?):
      guard case .record(let record) = loaded, record.isEmpty || template.isEmpty else {
        throw kindMismatch(loaded, current, path)
      }
    case (nil, nil):
      throw kindMismatch(loaded, current, path)
    }
  }

  /// The elements of a list (an array or an identified collection); nil for anything else.
  private static func list(_ value: Value) -> [Value]? {
    switch value {
    case .array(let elements): return elements
    case .identified(let collection): return collection.elements
    default: return nil
    }
  }

  private static func kindMismatch(_ loaded: Value, _ current: Value, _ path: ValuePath) -> ReluaError {
    fail(path, "the loaded state has \(kindName(loaded)) where the state has \(kindName(current))")
  }
}
