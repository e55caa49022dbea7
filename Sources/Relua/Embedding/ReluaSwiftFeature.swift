import Composable
import Foundation
import Lua

/// A feature written in Swift that Lua features compose: `relua.swiftFeature "Counter"` is a
/// feature Lua can `relua.scope`, `optional`, `forEach`, `presents` or `stack` — and make stores
/// of — whose state Lua sees as a table, whose actions are sent by path and checked against the
/// declared payload types, and whose reducer is Swift.
///
///     ReluaHost.registerForEveryState(try ReluaSwiftFeature.typed(
///       "Counter", reducer: CounterReducer(), initialState: Counter.State(),
///       actions: ["increment": nil, "setCount": "integer"],
///       action: { action in … Counter.Action? }, name: { action in FeatureAction })) // Codable state
///
/// The state crosses as JSON-shaped values each action (`Codable`, through `Value(json:)`): fine
/// for the small state of a leaf feature.
public struct ReluaSwiftFeature: @unchecked Sendable {
  /// The name Lua finds it by: `relua.swiftFeature "<name>"`.
  public let name: String
  /// Action names and their payload types as Lua declares them (`"integer"`, `"string?"`, `"table"`,
  /// …); nil for none.
  public let actions: [String: String?]
  /// The state a store of it starts from, as Lua sees it.
  public let initialState: Value
  /// Fields of its state bound to shared keys, as a Lua feature's `shared = { … }`: the Lua
  /// features holding the same keys share them with it.
  public var shared: [String: ReluaSharedKeyName] = [:]
  let reducer: AnyFeatureReducer

  /// A feature from a reducer over relua's own state and actions.
  public init<R: Reducer>(_ name: String, initialState: Value, actions: [String: String?], reducer: R)
  where R.State == Value, R.Action == FeatureAction {
    self.name = name
    self.actions = actions
    self.initialState = initialState
    self.reducer = AnyFeatureReducer(reducer)
  }

  /// A feature from a typed Composable reducer whose state is `Codable`: `action` turns a Lua
  /// action (already checked against `actions`) into the reducer's, nil for one it does not
  /// handle; `name` turns an action the reducer's effects send back into relua's.
  public static func typed<R: Reducer>(
    _ name: String, reducer: R, initialState: R.State, actions: [String: String?],
    action: @escaping (FeatureAction) -> R.Action?, name actionName: @escaping (R.Action) -> FeatureAction
  ) throws -> ReluaSwiftFeature where R.State: Codable {
    let bridge = Reduce<Value, FeatureAction> { state, featureAction in
      guard let typedAction = action(featureAction) else { return .none }
      do {
        var typed = try JSONDecoder().decode(R.State.self, from: Data(state.json().utf8))
        let effect = reducer.reduce(into: &typed, action: typedAction)
        state = try Value(json: String(decoding: JSONEncoder().encode(typed), as: UTF8.self))
        return effect.map(actionName)
      } catch {
        return .failure(ReluaError.usage("Swift feature '\(name)': its state does not convert (\(error))"))
      }
    }
    let initial = try Value(json: String(decoding: JSONEncoder().encode(initialState), as: UTF8.self))
    return ReluaSwiftFeature(name, initialState: initial, actions: actions, reducer: bridge)
  }
}

extension ReluaHost {
  /// Swift features every host gets as it is made (`registerForEveryState(_:)`).
  static var everyStateSwiftFeatures: [ReluaSwiftFeature] = []

  /// Makes `feature` available as `relua.swiftFeature "<name>"` in every host made from now on.
  public static func registerForEveryState(_ feature: ReluaSwiftFeature) {
    everyStateSwiftFeatures.removeAll { $0.name == feature.name }
    everyStateSwiftFeatures.append(feature)
  }

  /// Makes `feature` available as `relua.swiftFeature "<name>"` in this host's scripts.
  package func register(_ feature: ReluaSwiftFeature) {
    swiftFeatures[feature.name] = feature
  }

  /// `relua.swiftFeature "name"`: the feature table, made once per name (so it is the same
  /// feature wherever a script asks for it).
  func swiftFeatureTable(_ name: String) throws -> LuaValue {
    if let made = swiftFeatureTables[name] { return made }
    guard let feature = swiftFeatures[name] else {
      let known = swiftFeatures.keys.sorted().joined(separator: ", ")
      throw ReluaError.usage("relua.swiftFeature: no Swift feature '\(name)' is registered (registered: \(known.isEmpty ? "none" : known))")
    }
    let actions = try lua.table()
    for (action, payload) in feature.actions {
      try actions.rawSet(.text(action), payload.map { .text($0) } ?? .table(try lua.table()))
    }
    let spec = try lua.table()
    try spec.rawSet("state", lua.value(feature.initialState))
    try spec.rawSet("actions", .table(actions))
    if !feature.shared.isEmpty {
      let shared = try lua.table()
      for (field, key) in feature.shared {
        let descriptor = key.descriptor
        let table: LuaValue
        switch descriptor.kind {
        case "inMemory", "fileStorage", "appStorage":
          table = try module.rawGet(.text(descriptor.kind)).functionValue?.call(lua.value(descriptor.argument)).first ?? .nil
        default:
          table = try module.rawGet("sharedKey").functionValue?.call(.text(descriptor.kind), lua.value(descriptor.argument)).first ?? .nil
        }
        try shared.rawSet(.text(field), table)
      }
      try spec.rawSet("shared", .table(shared))
    }
    guard let make = try module.rawGet("feature").functionValue,
      let constructor = try make.call(.text(name)).first?.functionValue,
      case .table(let table)? = try constructor.call(.table(spec)).first
    else { throw ReluaError.usage("relua.swiftFeature: the feature could not be made") }
    try table.rawSet("swift", .text(name))
    swiftFeatureTables[name] = .table(table)
    return .table(table)
  }
}
