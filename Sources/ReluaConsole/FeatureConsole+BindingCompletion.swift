import Relua

extension FeatureConsole {
  /// What Tab offers for the bindings of the screen on top: `:binding.query`, and below a
  /// bindable field that holds a record, its fields as the state has them now
  /// (`:binding.item.title`, TCA's `$store.item.title`), a few levels deep.
  static func bindingCompletions(_ top: FeatureScreen) -> [String] {
    var names: [String] = []
    func nested(_ value: Value, _ path: String, _ depth: Int) {
      guard depth < 4, case .record(let record) = value else { return }
      for field in record.fields {
        names.append(":" + path + "." + field.key)
        nested(field.value, path + "." + field.key, depth + 1)
      }
    }
    for field in top.feature.bindable.sorted() {
      names.append(":binding." + field)
      nested(top.state[key: field], "binding." + field, 0)
    }
    return names
  }
}
