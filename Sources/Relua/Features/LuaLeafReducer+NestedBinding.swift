import Composable

/// `binding.item.title(value)` (TCA's `$store.item.title`): sets a field of a record below a
/// bindable field. The path must exist in the state as it is: each field on the way a record,
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
    let fields = action.steps.dropFirst().compactMap { step -> String? in
      if case .name(let name) = step { return name } else { return nil }
    }
    let label = "binding." + fields.joined(separator: ".")
    func refused(_ why: String) -> Effect<FeatureAction> {
      .failure(ReluaError.badAction("\(label) of \(feature.name): \(why)"))
    }
    // Down to the record holding the last field.
    var container = state
    var place = "state"
    for field in fields.dropLast() {
      let next = container[key: field]
      guard !next.isNull else { return refused("\(place) has no field '\(field)'\(Self.fieldsNote(container))") }
      container = next
      place += "." + field
      guard case .record = next else {
        return refused("\(place) holds \(describeValue(next)), not a record with fields")
      }
    }
    let last = fields.last!
    let current = container[key: last]
    guard !current.isNull else { return refused("\(place) has no field '\(last)'\(Self.fieldsNote(container))") }
    guard Self.bindingFits(current, action.payload) else {
      return refused("\(place).\(last) holds \(describeValue(current)), got \(describeValue(action.payload))")
    }
    // Logged for the send's transaction as a write of the bindable field (its old value whole).
    let top = fields[0]
    host.recordEngineWrite(ofField: top, old: state[key: top], forLeafAction: action)
    let path = fields.map { PathComponent.key($0) }
    if case (.float, .integer(let integer)) = (current, action.payload) {
      state[path: path] = .float(Double(integer))
    } else {
      state[path: path] = action.payload
    }
    return nil
  }

  /// ` (it has: a, b)` for a record; nothing for another value.
  private static func fieldsNote(_ value: Value) -> String {
    guard case .record(let record) = value, !record.keys.isEmpty else { return "" }
    return " (it has: \(record.keys.joined(separator: ", ")))"
  }
}
