import Relua

/// The classes of a feature's state, for `relua types`: the fields and types its initial state
/// has, and what its composition puts at its children's keys (a scoped child's state class, a
/// forEach's list of them, a presented destination that may be absent).
///
/// Types come from values: `0` is an `integer`, `0.5` a `number`, `""` a `string`; a nested
/// record is a class of its own (`NS.State.settings`), a list `T[]` with `T` merged over its
/// elements (a field some elements lack is optional); an empty table is a `table` (Lua's `{}` is
/// no list or record until written). A field the initial state leaves nil is not known, unless
/// the composition puts a child there.
@MainActor
struct FeatureStateTypes {
  /// The state class first (`NS.State`), then the classes of its nested records.
  private(set) var classes: [LuaClassAnnotation] = []
  /// The type of each top-level field (what `binding.<field>` takes).
  private(set) var fieldTypes: [String: LuaAnnotationType] = [:]
  private var taken: Set<String>

  /// `stateClass(child)`: the name of a child feature's state class.
  init(
    feature: FeatureDefinition, initial: Value, className: String, takenNames: Set<String>,
    stateClass: (FeatureDefinition) -> String
  ) {
    // (The state class's name is the feature's, unique as its namespace is; nested ones are
    // made unique among all the classes of a run.)
    taken = takenNames.union([className])
    let name = className
    var state = LuaClassAnnotation(name: name, notes: [
      "The state of the feature \(LuaAnnotation.quoted(feature.name)): its fields as its initial state has them, and its children's",
      "(a field the initial state leaves nil is not named: any other is allowed).",
    ])
    state.isOpen = true
    classes.append(state)
    let record = initial.recordValue ?? ValueRecord()
    var fields: [LuaClassAnnotation.Field] = []
    for field in record.fields.sorted(by: { $0.key < $1.key }) {
      if let child = feature.child(field.key), let type = childType(child, in: name, stateClass: stateClass) {
        fields.append(.init(name: field.key, type: type.type, optional: type.optional))
      } else {
        fields.append(.init(name: field.key, type: infer([field.value], name: name + "." + field.key)))
      }
    }
    for child in feature.children where record[child.key].isNull {
      if let type = childType(child, in: name, stateClass: stateClass) {
        fields.append(.init(name: child.key, type: type.type, optional: true))
      }
    }
    fields.sort { $0.name < $1.name }
    state.fields = fields
    classes[0] = state
    for field in fields { fieldTypes[field.name] = field.type }
  }

  /// Every class name these types declare (for the next feature's, which must differ).
  var declaredNames: Set<String> { taken }

  private mutating func unique(_ name: String) -> String {
    var candidate = name
    var counter = 2
    while taken.contains(candidate) {
      candidate = "\(name)_\(counter)"
      counter += 1
    }
    taken.insert(candidate)
    return candidate
  }

  /// What a composed child puts at its key; nil for a derived one (a lens: its state is not
  /// stored at the key).
  private mutating func childType(
    _ child: FeatureChild, in stateName: String, stateClass: (FeatureDefinition) -> String
  ) -> (type: LuaAnnotationType, optional: Bool)? {
    func destination(_ destination: FeatureChild.Destination) -> LuaAnnotationType {
      switch destination {
      case .feature(let feature): return .name(stateClass(feature))
      case .alert: return .name("relua.AlertState")
      }
    }
    func kindsClass(_ kinds: [String: FeatureChild.Destination], name: String, note: String, id: Bool) -> LuaAnnotationType {
      var kindsClass = LuaClassAnnotation(name: unique(name), notes: [note])
      if id { kindsClass.fields.append(.init(name: "id", type: .name("integer"))) }
      for kind in kinds.keys.sorted() {
        kindsClass.fields.append(.init(name: kind, type: destination(kinds[kind]!), optional: true))
      }
      classes.append(kindsClass)
      return .name(kindsClass.name)
    }
    // The type of one child state (of a collection's element).
    func placeType(inElement: Bool) -> LuaAnnotationType {
      guard child.selectsKind else { return destination(child.onlyDestination!) }
      if inElement {
        let note = "An element of the stack `\(child.key)`: its id and one of its kinds."
        return kindsClass(child.destinationsByKind, name: stateName + "." + child.key + ".Element", note: note, id: true)
      }
      let note = "What `\(child.key)` presents: one of its kinds at a time."
      return kindsClass(child.destinationsByKind, name: stateName + "." + child.key, note: note, id: false)
    }
    switch child.storage {
    case .derived: return nil
    case .field: return (placeType(inElement: false), false)
    case .optionalField: return (placeType(inElement: false), true)
    case .elements: return (.list(placeType(inElement: true)), false)
    }
  }

  /// The type of the values seen in one place (one value, or every element of a list there).
  private mutating func infer(_ samples: [Value], name: String) -> LuaAnnotationType {
    let values = samples.filter { !$0.isNull }
    guard !values.isEmpty else { return .any }
    if values.allSatisfy({ !$0.isContainer }) {
      var names: [String] = []
      for value in values {
        let scalar: String
        switch value {
        case .boolean: scalar = "boolean"
        case .integer: scalar = "integer"
        case .float: scalar = "number"
        default: scalar = "string"
        }
        if !names.contains(scalar) { names.append(scalar) }
      }
      if names.contains("number") { names.removeAll { $0 == "integer" } }
      let order = ["boolean", "integer", "number", "string"]
      let sorted = names.sorted { order.firstIndex(of: $0)! < order.firstIndex(of: $1)! }
      return sorted.count == 1 ? .name(sorted[0]) : .union(sorted.map { .name($0) })
    }
    guard values.allSatisfy(\.isContainer) else { return .any }
    // An empty table is no list or record yet: it fits whatever the others are.
    let filled = values.filter { $0.count > 0 }
    let identified = values.contains { $0.identifiedValue != nil }
    guard !filled.isEmpty else { return identified ? .list(.table) : .table }
    if filled.allSatisfy({ $0.recordValue != nil }) {
      return record(filled.compactMap(\.recordValue), name: name)
    }
    if filled.allSatisfy({ $0.recordValue == nil }) {
      let elements = filled.flatMap { $0.arrayValue ?? $0.identifiedValue?.elements ?? [] }
      return .list(infer(elements, name: name + ".Element"))
    }
    return .table
  }

  /// A class for records seen in one place: every field any of them has, optional where some lack it.
  private mutating func record(_ records: [ValueRecord], name: String) -> LuaAnnotationType {
    var recordClass = LuaClassAnnotation(name: unique(name))
    recordClass.isOpen = true
    let index = classes.count
    classes.append(recordClass)
    let keys = Set(records.flatMap(\.keys)).sorted()
    for key in keys {
      let present = records.map { $0[key] }.filter { !$0.isNull }
      recordClass.fields.append(.init(
        name: key, type: infer(present, name: recordClass.name + "." + key), optional: present.count < records.count))
    }
    classes[index] = recordClass
    return .name(recordClass.name)
  }
}
