import Relua

import Composable
import Foundation
import Lua

/// `relua types`: loads feature scripts as `relua run` loads them (each in a sandboxed state of
/// its own, `require` finding modules beside it and under the repository's `Scripts`), walks the
/// features each returns and the children reachable from them, and gives the meta files that
/// type them for lua-language-server (`LuaTypesWriter`).
///
/// A feature's types come from its definition (actions, payload types, composition) and its
/// initial state, made with fixed dependencies (uuids counting up, random numbers from seed 0,
/// the date 0, the live value of any other): `state(deps)` runs once per feature.
@MainActor
package final class LuaTypesGenerator {
  package struct File: Equatable, Sendable {
    /// The file's name in the output directory (`relua.lua`, `Features.Counter.lua`).
    package let name: String
    package let text: String
  }

  /// A script that cannot be typed: it raised, or returned no feature. `description` starts
  /// with the script's `file:line`.
  package struct Failure: Error, CustomStringConvertible {
    package let description: String
  }

  private var models: [String: FeatureTypeModel] = [:]
  /// Every class name declared so far (nested state classes are kept apart across features).
  private var classNames: Set<String> = []

  package init() {}

  /// How many features the scripts added so far declare (children included).
  package var featureCount: Int { models.count }

  /// Loads `script` and adds its features and their children. Throws `Failure`, or the
  /// `LuaError`/`ReluaError` the script raised (its message starts with its `file:line`).
  package func add(script: String, options: LuaOptions = LuaOptions(
    memoryLimit: ReluaRuntime.defaultMemoryLimit, instructionLimit: ReluaRuntime.defaultInstructionLimit)
  ) async throws {
    var options = options
    let roots = LuaTestDiscovery.scriptRoots(for: script)
    options.scriptRoots = roots
    let lua = try LuaState(options: options)
    defer { lua.close() }
    let host = try ReluaHost.install(in: lua)
    // Effects the script started stop before the state closes, however the loading ended.
    let outcome: Result<Void, any Error>
    do {
      try await add(script: script, roots: roots, lua: lua, host: host)
      outcome = .success(())
    } catch {
      outcome = .failure(error)
    }
    await host.stopEffects()
    try outcome.get()
  }

  private func add(script: String, roots: [String], lua: LuaState, host: ReluaHost) async throws {
    let argTable = try lua.table(array: [])
    try argTable.rawSet(.integer(0), .text(script))
    try lua.setGlobal("arg", .table(argTable))
    let results = try await LuaCoroutineDriver.run(try lua.load(file: script))
    var returned: [FeatureDefinition] = []
    for result in results {
      guard let table = result.tableValue, try host.tags.isFeature(table) else { continue }
      returned.append(try host.feature(result, what: script))
    }
    guard !returned.isEmpty else {
      let what = results.first.map { $0.isNil ? "nil" : "a \($0.type)" } ?? "nothing"
      throw Failure(description: "\(Self.endOfChunk(script)): the script returned \(what), not a feature: "
        + "a feature script ends with `return relua.feature \"Name\" { … }` (or returns the feature it declared)")
    }
    var loaded: [(name: String, feature: FeatureDefinition)] = []
    if let modules = try lua.global("package").tableValue?["loaded"].tableValue {
      for (name, value) in try modules.pairs() {
        guard let name = name.stringValue, let table = value.tableValue, try host.tags.isFeature(table) else { continue }
        loaded.append((name, try host.feature(value, what: "require \"\(name)\"")))
      }
    }
    loaded.sort { $0.name < $1.name }
    let features = Self.reachable(from: returned)
    let origins = FeatureOrigins(script: script, roots: roots, returned: returned, loaded: loaded, features: features)
    var dependencies = DependencyValues()
    dependencies.uuid = .incrementing
    dependencies.random = .seeded(0)
    dependencies.date = .constant(Date(timeIntervalSince1970: 0))
    // States first: a parent's bindings of a child's fields take the child's field types.
    var states: [ObjectIdentifier: FeatureStateTypes] = [:]
    var initials: [ObjectIdentifier: Value] = [:]
    var names = classNames.union(features.map { origins.origin(of: $0).namespace + ".State" })
    for feature in features {
      let initial = try host.initialState(of: feature, dependencies: dependencies)
      let types = FeatureStateTypes(
        feature: feature, initial: initial, className: origins.origin(of: feature).namespace + ".State",
        takenNames: names, stateClass: { origins.origin(of: $0).namespace + ".State" })
      names = types.declaredNames
      states[ObjectIdentifier(feature)] = types
      initials[ObjectIdentifier(feature)] = initial
    }
    // A feature's fields that hold features (`Destinations.Counter = Counter`) take their classes.
    var featureClasses: [UnsafeRawPointer: String] = [:]
    for feature in features { featureClasses[try feature.table.identity()] = origins.origin(of: feature).namespace }
    let featureType = { (table: LuaTable) throws -> String? in
      guard try host.tags.isFeature(table) else { return nil }
      return featureClasses[try table.identity()] ?? "relua.Feature"
    }
    for feature in features {
      let origin = origins.origin(of: feature)
      let model = FeatureTypeModel(
        name: feature.name, origin: origin, hasView: feature.viewFunction != nil,
        ownFields: try FeatureTypeModel.ownFields(of: feature.table, featureType: featureType),
        stateClasses: states[ObjectIdentifier(feature)]!.classes,
        actions: FeatureActionPaths(feature: feature) { owner, field in
          states[ObjectIdentifier(owner)]?.fieldTypes[field] ?? .any
        } nestedBindings: { owner, field in
          let stateClass = origins.origin(of: owner).namespace + ".State."
          let classes = Set(states[ObjectIdentifier(owner)]?.classes.map(\.name) ?? [])
          return NestedBindingPaths.paths(of: initials[ObjectIdentifier(owner)] ?? .null, field: field) { path in
            classes.contains(stateClass + path) ? stateClass + path : nil
          }
        })
      if let earlier = models[origin.namespace] {
        // The same file loaded for another script: the same types. Another file: a clash.
        guard earlier.origin.file == origin.file else {
          throw Failure(description: "\(origin.location): the feature \(LuaAnnotation.quoted(feature.name)) would take the type name "
            + "\(origin.namespace), which \(earlier.origin.location) already has (two files with one module name: give them different names or places)")
        }
        continue
      }
      models[origin.namespace] = model
    }
    classNames = names
  }

  /// `relua.lua` first, then one file per module, by name.
  package func files() -> [File] {
    let all = Array(models.values)
    var files = [File(name: LuaTypesWriter.apiFile, text: LuaTypesWriter.api(features: all))]
    let byFile = Dictionary(grouping: all, by: { LuaTypesWriter.fileName(module: $0.origin.module) })
    for name in byFile.keys.sorted() {
      files.append(File(name: name, text: LuaTypesWriter.module(byFile[name]!)))
    }
    return files
  }

  /// The features `roots` are made of, each once, parents before children.
  static func reachable(from roots: [FeatureDefinition]) -> [FeatureDefinition] {
    var seen = Set<ObjectIdentifier>()
    var order: [FeatureDefinition] = []
    var queue = roots
    while !queue.isEmpty {
      let feature = queue.removeFirst()
      guard seen.insert(ObjectIdentifier(feature)).inserted else { continue }
      order.append(feature)
      for child in feature.children { queue += child.features }
    }
    return order
  }

  /// `file:line` of the script's last `return` (where it ended), or of its last line.
  static func endOfChunk(_ script: String) -> String {
    let shown = LuaTestDiscovery.relativeToCurrentDirectory(script)
    guard let text = try? String(contentsOfFile: script, encoding: .utf8) else { return shown }
    let lines = text.components(separatedBy: "\n")
    let returnLine = lines.lastIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("return") }
    let lastLine = lines.lastIndex { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    return "\(shown):\((returnLine ?? lastLine ?? 0) + 1)"
  }
}
