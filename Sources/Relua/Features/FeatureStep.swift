import Lua

/// One entry of what a feature runs for an action, in order (see `FeatureDefinition.steps`).
@MainActor
enum FeatureStep {
  /// `children[index]`.
  case child(Int)
  /// The feature's own reducer (its `reduce` field).
  case own
  /// Another reducer of the feature's own (`relua.reduce` in `compose`, TCA's `Reduce`).
  case reduce(FeatureOwnReducer)
  /// `relua.onChange(of, handler)`.
  case onChange(FeatureOnChange)
}

/// Lua logic over the feature's own state: `relua.on` handlers by action pattern (`increment`,
/// `counter.playNext`, `rows.onAppear`), or a plain `function(state, action, deps)` called for
/// every action.
@MainActor
final class FeatureOwnReducer {
  let handlers: [String: FeatureHandler]
  let reduceFunction: LuaFunction?

  init(handlers: [String: FeatureHandler], reduceFunction: LuaFunction?) {
    self.handlers = handlers
    self.reduceFunction = reduceFunction
  }
}

/// `relua.onChange("count", function(state, old, new, deps, action) … end)` (TCA's
/// `.onChange(of:)`): after the reducers before it ran, if the watched value differs from what it
/// was before the feature handled the action, the handler runs (and may return an effect).
@MainActor
struct FeatureOnChange {
  enum Watched {
    /// A state path (`count`, `rows`, `settings.theme`).
    case path(String)
    /// `function(state)` returning the value to compare.
    case projection(LuaFunction)
  }

  let watched: Watched
  let handler: LuaFunction
  let definedAt: String
  /// Its place among the feature's onChange entries.
  let index: Int
}
