import Lua

/// A `relua.on` handler: its function, and how many of the arguments `(state, payload, deps, id)`
/// it declares. The common call passes no more than that: a handler written `function(s)` cannot
/// see the others, and pushing them (the dependencies' table from the registry, two nils) cost
/// ≈ 40 instructions a send (1.5 %).
struct FeatureHandler {
  let function: LuaFunction
  /// 1–4: the declared parameters, at least the state; 4 for a function taking `...` (it may
  /// read any of them) and for a Swift or C function.
  let argumentCount: Int32

  init(_ function: LuaFunction) throws {
    self.function = function
    let (count, isVararg) = try function.parameters()
    argumentCount = isVararg ? 4 : Int32(min(max(count, 1), 4))
  }
}
