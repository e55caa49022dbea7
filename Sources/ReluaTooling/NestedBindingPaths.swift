import Relua

/// The nested bindings of a bindable field, for `relua types`: `binding.item.title` for each
/// field of the records the field's initial value holds (TCA's `$store.item.title`), typed by
/// that value (`""` a string, `0` an integer, `0.5` a number; a record its state class, another
/// table a `table`). Records are followed a few levels deep; a field the initial state leaves nil
/// is not known.
enum NestedBindingPaths {
  static let depthLimit = 4

  /// `(path below the field, type)`: `("item.title", string)` for `field` `item`. A record is typed
  /// by `recordClass(path)`, the class the state's types gave it, when there is one.
  static func paths(
    of initial: Value, field: String, recordClass: (String) -> String? = { _ in nil }
  ) -> [(path: String, type: LuaAnnotationType)] {
    var found: [(path: String, type: LuaAnnotationType)] = []
    func walk(_ value: Value, _ path: String, _ depth: Int) {
      guard depth < depthLimit, case .record(let record) = value else { return }
      for entry in record.fields {
        let below = path + "." + entry.key
        let known = entry.value.recordValue != nil ? recordClass(below).map(LuaAnnotationType.name) : nil
        found.append((below, known ?? type(of: entry.value)))
        walk(entry.value, below, depth + 1)
      }
    }
    walk(initial[key: field], field, 0)
    return found
  }

  private static func type(of value: Value) -> LuaAnnotationType {
    switch value {
    case .boolean: return .name("boolean")
    case .integer: return .name("integer")
    case .float: return .name("number")
    case .string: return .name("string")
    case .null: return .any
    case .array, .record, .identified: return .table
    }
  }
}
