import Relua

extension FeatureConsole {
  /// What Tab offers for the bindings of the screen on top: `:binding.query`, and below a
  /// bindable field that holds a record, its fields as the state has them now
  /// (`:binding.item.title`, TCA's `$store.item.title`), a few levels deep, and below a list the
  /// fields of its first elements by id (`:binding.item.rows[id=3].name`).
  static func bindingCompletions(_ top: FeatureScreen) -> [String] {
    let elementLimit = 20  // a long list's rows would bury the other bindings
    var names: [String] = []
    func nested(_ value: Value, _ path: String, _ depth: Int) {
      guard depth < 4 else { return }
      if case .record(let record) = value {
        for field in record.fields {
          names.append(":" + path + "." + field.key)
          nested(field.value, path + "." + field.key, depth + 1)
        }
        return
      }
      // A list's elements by id, their fields below (`:binding.item.rows[id=3].name`).
      let elements: [Value]
      switch value {
      case .identified(let collection): elements = collection.elements
      case .array(let list): elements = list
      default: return
      }
      for element in elements.prefix(elementLimit) {
        let id = IdentifiedValues.id(of: element)
        guard id.integerValue != nil || id.stringValue != nil else { continue }
        nested(element, path + "[id=" + id.luaLiteral() + "]", depth + 1)
      }
    }
    for field in top.feature.bindable.sorted() {
      names.append(":binding." + field)
      nested(top.state[key: field], "binding." + field, 0)
    }
    return names
  }
}
