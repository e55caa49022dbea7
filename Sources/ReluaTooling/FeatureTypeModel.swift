import Relua

import Lua

/// What `relua types` knows of one feature: where it comes from, the classes of its state, the
/// actions its stores accept, and the fields of its own the feature table carries (helpers a
/// script adds: `Counter.feedback`). `LuaTypesWriter` writes it out.
@MainActor
struct FeatureTypeModel {
  /// The name `relua.feature` was given.
  let name: String
  let origin: FeatureOrigins.Origin
  let hasView: Bool
  /// Fields of the feature table besides the DSL's, with the type of their value.
  let ownFields: [LuaClassAnnotation.Field]
  let stateClasses: [LuaClassAnnotation]
  let actions: FeatureActionPaths

  var namespace: String { origin.namespace }
  var stateClass: String { namespace + ".State" }

  /// The fields `relua.feature` puts in a feature table (`ReluaPrelude`), and a Swift feature's tag.
  static let dslFields: Set<String> = [
    "name", "state", "actions", "compose", "bindable", "reduce", "view", "dependencies", "definedAt", "swift", "stateOnly",
    "task",
  ]

  /// `featureType(table)`: the type of a table that is a feature (its class), nil for another table.
  static func ownFields(of table: LuaTable, featureType: (LuaTable) throws -> String?) throws -> [LuaClassAnnotation.Field] {
    var fields: [LuaClassAnnotation.Field] = []
    for (key, value) in try table.pairs() {
      guard let key = key.stringValue, !dslFields.contains(key) else { continue }
      let type: String
      switch value {
      case .function: type = "function"
      case .table(let value): type = try featureType(value) ?? "table"
      case .string: type = "string"
      case .boolean: type = "boolean"
      case .integer: type = "integer"
      case .number: type = "number"
      default: type = "any"
      }
      fields.append(.init(name: key, type: .name(type)))
    }
    return fields.sorted { $0.name < $1.name }
  }
}
