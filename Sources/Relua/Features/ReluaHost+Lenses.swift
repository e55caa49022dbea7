import Composable
import Lua

/// Derived children (`relua.scope(key, Feature, get, set)`): the lens functions, called on views.
extension ReluaHost {
  /// A derived child's state: `get(state)` on a read-only look at the parent.
  func lensGet(_ get: LuaFunction, _ parent: Value, key: String) -> Value {
    var parent = parent
    do {
      return try views.withViews(of: &parent) { session in
        guard let result = try lua.call(get, session.view()).first else { return .null }
        return try value(from: result)
      }
    } catch {
      RuntimeWarnings.report("The lens '\(key)' failed to get its state: \(error)")
      return .null
    }
  }

  /// Writes a derived child's state back: `set(state, child)`.
  func lensSet(_ set: LuaFunction, _ parent: inout Value, _ child: Value, key: String) {
    do {
      try views.withViews(of: &parent, anchor: { anchor(parentOfLens: key) }) { session in
        _ = try lua.call(set, session.view(), lua.value(child))
      }
    } catch {
      RuntimeWarnings.report("The lens '\(key)' failed to set its state: \(error)")
    }
  }
}
