import Lua

/// A Lua feature as the host runs it: compiled once from the table `relua.feature` made.
@MainActor
public final class FeatureDefinition {
  public let name: String
  /// The feature table (its `state`, `view` and `initial`).
  let table: LuaTable
  /// Its own actions and their payloads.
  public let actions: [String: PayloadType]
  /// Its children, in declaration order (they run before its own reducer, in this order).
  public internal(set) var children: [FeatureChild]
  /// Fields that `binding.<field>` actions may set.
  public let bindable: [String]
  /// `relua.on` handlers by action pattern (`increment`, `counter.playNext`, `rows.onAppear`).
  internal(set) var handlers: [String: FeatureHandler]
  /// A plain `reduce = function(state, action, deps)`, called for every action.
  let reduceFunction: LuaFunction?
  let viewFunction: LuaFunction?
  /// Where `relua.feature` was called (`Scripts/Features/Counter.lua:4`).
  public let definedAt: String
  /// How many of the children run before the feature's own reducer (`relua.own` in `compose`;
  /// only scopes can run after it: optional, forEach, presents and stack always run their child first).
  internal(set) var ownReducerPosition: Int

  init(
    name: String, table: LuaTable, actions: [String: PayloadType], children: [FeatureChild], bindable: [String],
    handlers: [String: FeatureHandler], reduceFunction: LuaFunction?, viewFunction: LuaFunction?, definedAt: String,
    ownReducerPosition: Int
  ) {
    self.ownReducerPosition = ownReducerPosition
    self.name = name
    self.table = table
    self.actions = actions
    self.children = children
    self.bindable = bindable
    self.handlers = handlers
    self.reduceFunction = reduceFunction
    self.viewFunction = viewFunction
    self.definedAt = definedAt
  }

  public func child(_ key: String) -> FeatureChild? { children.first { $0.key == key } }

  /// What the feature accepts, for messages: `decrement, increment, setCount(integer), counter.…`.
  public var acceptedActions: String {
    var names = actions.keys.sorted().map { name -> String in
      let payload = actions[name]!
      return payload == .none ? name : "\(name)(\(payload))"
    }
    if !bindable.isEmpty { names += bindable.sorted().map { "binding.\($0)(value)" } }
    names += children.map(\.acceptedPrefix)
    return names.isEmpty ? "no actions" : names.joined(separator: ", ")
  }
}

/// One composed child of a feature.
@MainActor
public struct FeatureChild {
  public enum Kind {
    case scope(FeatureDefinition)
    /// A derived child: `get(state)` makes its state, `set(state, child)` writes it back.
    case lens(FeatureDefinition, get: LuaFunction, set: LuaFunction)
    case optional(FeatureDefinition)
    case forEach(FeatureDefinition)
    case presents([String: Destination])
    case stack([String: Destination])
  }

  /// What a destination or stack element can be.
  public enum Destination {
    case feature(FeatureDefinition)
    /// An alert: its state is `{ title = …, message = …, buttons = {…} }`; its actions go to the
    /// parent, and it is dismissed after any of them.
    case alert(actions: [String: PayloadType])

    @MainActor var acceptedActions: String {
      switch self {
      case .feature(let definition): return definition.acceptedActions
      case .alert(let actions):
        return actions.keys.sorted().map { actions[$0]! == .none ? $0 : "\($0)(\(actions[$0]!))" }.joined(separator: ", ")
      }
    }
  }

  public let key: String
  public let kind: Kind
  public let definedAt: String

  var acceptedPrefix: String {
    switch kind {
    case .scope, .lens, .optional: return "\(key).…"
    case .forEach: return "\(key)[id].…"
    case .presents: return "\(key).<kind>.…, \(key).dismiss"
    case .stack: return "\(key)[id].<kind>.…, \(key).popFrom(id)"
    }
  }

  var kindName: String {
    switch kind {
    case .scope: return "scope"
    case .lens: return "scope (lens)"
    case .optional: return "optional"
    case .forEach: return "forEach"
    case .presents: return "presents"
    case .stack: return "stack"
    }
  }
}
