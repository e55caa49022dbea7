import Composable

/// `binding.item.title(value)` (TCA's `$store.item.title`): sets a field of a record below a
/// bindable field; `binding.item.rows[id=3].name` a field of one element of a list there (TCA's
/// `ForEach($store.item.rows) { $row in … $row.name }`). The path must exist in the state as it is: each field on the way a record,
/// the last field present in it (a typo is an error naming the fields there, not a new field).
extension LuaLeafReducer {
  /// Whether a binding's value can replace the field's: the same kind (a float field takes an
  /// integer; nil replaces or is replaced by anything).
  static func bindingFits(_ current: Value, _ value: Value) -> Bool {
    switch (current, value) {
    case (.null, _), (_, .null): return true
    case (.integer, .integer), (.float, .float), (.float, .integer), (.string, .string), (.boolean, .boolean): return true
    case (.array, .array), (.record, .record), (.identified, .array), (.identified, .identified): return true
    default: return false
    }
  }

  @MainActor
  func applyNestedBinding(_ action: FeatureAction, to state: inout Value) -> Effect<FeatureAction>? {
    let steps = action.steps.dropFirst()
    let label = FeatureAction(steps: action.steps).name
    func refused(_ why: String) -> Effect<FeatureAction> {
      .failure(ReluaError.badAction("\(label) of \(feature.name): \(why)"))
    }
    // Down to the record holding the last field; an element (`[id=…]`) becomes its position, so
    // the write below works on an identified collection and a plain list alike.
    var path: [PathComponent] = []
    var container = state
    var place = "state"
    for step in steps.dropLast() {
      switch step {
      case .name(let field):
        guard case .record = container else {
          return refused("\(place) holds \(describeValue(container)), not a record with fields")
        }
        let next = container[key: field]
        guard !next.isNull else { return refused("\(place) has no field '\(field)'\(Self.fieldsNote(container))") }
        container = next
        place += "." + field
        path.append(.key(field))
      case .id(let id):
        guard let (position, element) = Self.element(id: id, in: container) else {
          return refused(Self.missingElement(id, in: container, place: place))
        }
        container = element
        place += "[id=\(id.luaLiteral())]"
        path.append(.index(position))
      }
    }
    guard case .name(let last)? = steps.last else { return refused("a binding ends at a field") }
    guard case .record = container else {
      return refused("\(place) holds \(describeValue(container)), not a record with fields")
    }
    let current = container[key: last]
    guard !current.isNull else { return refused("\(place) has no field '\(last)'\(Self.fieldsNote(container))") }
    guard Self.bindingFits(current, action.payload) else {
      return refused("\(place).\(last) holds \(describeValue(current)), got \(describeValue(action.payload))")
    }
    // Logged for the send's transaction as a write of the bindable field (its old value whole).
    guard case .key(let top)? = path.first else { return refused("a binding starts at a field") }
    host.recordEngineWrite(ofField: top, old: state[key: top], forLeafAction: action)
    path.append(.key(last))
    if case (.float, .integer(let integer)) = (current, action.payload) {
      state[path: path] = .float(Double(integer))
    } else {
      state[path: path] = action.payload
    }
    return nil
  }

  /// The element with `id` of a list (an identified collection, or a plain list of records with
  /// ids) and its position (0-based).
  static func element(id: Value, in list: Value) -> (position: Int, element: Value)? {
    switch list {
    case .identified(let collection):
      return collection.index(id: id).map { ($0, collection[$0]) }
    case .array(let elements):
      return elements.firstIndex { IdentifiedValues.id(of: $0) == id }.map { ($0, elements[$0]) }
    default:
      return nil
    }
  }

  /// Why `[id=…]` finds nothing at `place`: the ids the list has, or what the value is instead.
  private static func missingElement(_ id: Value, in value: Value, place: String) -> String {
    let ids: [Value]
    switch value {
    case .identified(let collection): ids = collection.ids
    case .array(let elements): ids = elements.map(IdentifiedValues.id(of:))
    case .record(let record) where record.keys.isEmpty: ids = []  // `{}`: an empty list too
    default: return "\(place) holds \(describeValue(value)), not a list of elements with ids"
    }
    let shown = ids.prefix(20).map { $0.luaLiteral() }.joined(separator: ", ")
    let more = ids.count > 20 ? ", … (\(ids.count) in all)" : ""
    return "\(place) has no element with id \(id.luaLiteral())"
      + (ids.isEmpty ? " (it is empty)" : " (its ids: \(shown)\(more))")
  }

  /// ` (it has: a, b)` for a record; nothing for another value.
  private static func fieldsNote(_ value: Value) -> String {
    guard case .record(let record) = value, !record.keys.isEmpty else { return "" }
    return " (it has: \(record.keys.joined(separator: ", ")))"
  }
}
