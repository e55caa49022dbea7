import CReluaShim
import Composable
import Foundation
import Lua

/// How the host calls into Lua for features: initial states, handlers, `reduce` functions and
/// `onChange` handlers, and how their errors fail a send.
extension ReluaHost {
  /// The feature's initial state: `state(deps)` with the given dependencies, or its table.
  package func initialState(of feature: FeatureDefinition, dependencies: DependencyValues) throws -> Value {
    let initial = try feature.table.rawGet("state")
    let raw: Value
    if let function = initial.functionValue {
      let result = try DependencyValues.withValues(dependencies) { try lua.call(function, .table(deps)) }
      guard let table = result.first, case .table = table else {
        throw ReluaError.usage("\(feature.definedAt): feature '\(feature.name)': state(deps) must return a table")
      }
      raw = try value(from: table)
    } else {
      raw = try value(from: initial)
    }
    do {
      try FeatureStateCheck.check(raw, against: feature)
    } catch let error as ReluaError {
      throw ReluaError.usage("\(feature.definedAt): feature '\(feature.name)': its initial state does not fit its composition: \(error.fullDescription)")
    }
    return FeatureStateShape.conform(raw, to: feature)
  }

  // MARK: Calling Lua reducers

  /// Runs a `relua.on` handler: `handler(state, payload, deps, id)` on a live view of `state`.
  /// `handler`: the registry reference of a handler of one of this host's features (they live as
  /// long as the host); `argumentCount`: how many of those arguments it declares (1–4, see
  /// `FeatureHandler`).
  func runHandler(
    _ handler: Int32, argumentCount: Int32, feature: FeatureDefinition, state: inout Value, action: FeatureAction
  ) -> Effect<FeatureAction> {
    // The handler goes to `runLua` as a registry reference, not in a closure: a closure literal
    // stayed a function of its own even with `runLua` inlined (≈ 20 instructions a send).
    runLua(feature: feature, state: &state, action: action, handler: handler, argumentCount: argumentCount) { nil }
  }

  /// Calls the handler at `handler` for `action` on the running session.
  @inline(__always)
  private func callHandler(_ handler: Int32, argumentCount: Int32, action: FeatureAction) throws -> LuaValue? {
    // The common shape (a view, no payload, no id) is one C call; anything else pushes its
    // arguments from Swift, out of line.
    if action.payload.isNull, views.value.isContainer, !Self.namesID(action) {
      return try callHandlerOnView(handler, argumentCount: argumentCount)
    }
    return try callHandlerPushingArguments(handler, action: action)
  }

  /// `handler(state, payload, deps, id)` with the arguments pushed from Swift.
  @inline(never)
  private func callHandlerPushingArguments(_ handler: Int32, action: FeatureAction) throws -> LuaValue? {
    try lua.callRaw(
      registryReference: handler, argumentCount: 4,
      pushArguments: { L in
        let L = LuaRawStack(L)
        try views.pushSessionState(onto: L)
        if action.payload.isNull { L.pushNil() } else { try action.payload.push(onto: L) }
        L.pushRegistryValue(depsReference)
        if let id = action.firstID { try id.push(onto: L) } else { L.pushNil() }
      },
      readResults: { L, first, count in Self.firstResult(lua, LuaRawStack(L), first, count) })
  }

  /// Whether `action` names an element (the handler's `id`): `firstID != nil` without copying it.
  @inline(__always)
  private static func namesID(_ action: FeatureAction) -> Bool {
    var index = action.steps.startIndex
    while index < action.steps.endIndex {
      if case .id = action.steps[index] { return true }
      index += 1
    }
    return false
  }

  /// `handler(view, nil, deps, nil)` (as many of them as it declares) on the running session's
  /// own view, in one C call (`relua_callhandler`): what `callRaw` does with the arguments pushed
  /// from Swift, without crossing between Swift and C for each of them. Returns the handler's
  /// first result unless nil.
  @inline(__always)
  private func callHandlerOnView(_ handler: Int32, argumentCount: Int32) throws -> LuaValue? {
    let L = try lua.currentRawStack()
    let status = relua_callhandler(L.rawState, Int64(handler), views.rootHandle.pointer, depsReference, argumentCount)
    if status == LuaRawStack.ok { return nil }
    return try handlerResult(status: status, on: L)
  }

  /// What a handler called by `relua_callhandler` returned (a value), or its error.
  @inline(never)
  private func handlerResult(status: Int32, on L: LuaRawStack) throws -> LuaValue? {
    if status == RELUA_HANDLER_NOROOM { throw LuaError.memory(message: "Lua stack overflow") }
    defer { L.pop(2) }  // the result or error, and the message handler
    if status == RELUA_HANDLER_RETURNED { return lua.value(at: -1, in: L.rawState) }
    throw lua.callFailure(status: status, on: L.rawState)
  }

  /// Runs a plain `reduce = function(state, action, deps)`; `action` is `{ name, payload, id }`.
  func runReduceFunction(
    _ function: LuaFunction, feature: FeatureDefinition, state: inout Value, action: FeatureAction
  ) -> Effect<FeatureAction> {
    runLua(feature: feature, state: &state, action: action) {
      try lua.callRaw(
        function, argumentCount: 3,
        pushArguments: { L in
          let L = LuaRawStack(L)
          try views.pushSessionState(onto: L)
          try Self.pushRecord(of: action, onto: L)
          L.pushRegistryValue(depsReference)
        },
        readResults: { L, first, count in Self.firstResult(lua, LuaRawStack(L), first, count) })
    }
  }

  /// Runs a `relua.onChange` handler: `handler(state, old, new, deps, action)`.
  func runOnChange(
    _ handler: LuaFunction, feature: FeatureDefinition, state: inout Value, old: Value, new: Value,
    action: FeatureAction
  ) -> Effect<FeatureAction> {
    runLua(feature: feature, state: &state, action: action) {
      try lua.callRaw(
        handler, argumentCount: 5,
        pushArguments: { L in
          let L = LuaRawStack(L)
          try views.pushSessionState(onto: L)
          try old.push(onto: L)
          try new.push(onto: L)
          L.pushRegistryValue(depsReference)
          try Self.pushRecord(of: action, onto: L)
        },
        readResults: { L, first, count in Self.firstResult(lua, LuaRawStack(L), first, count) })
    }
  }

  /// The value a `relua.onChange` entry watches in `state`: the value at its path, or what its
  /// function returns on a read-only look at the state.
  func watched(_ watched: FeatureOnChange.Watched, in state: Value) throws -> Value {
    switch watched {
    case .path(let path):
      return try state.at(path: path)
    case .projection(let projection):
      var copy = state
      return try views.withViews(of: &copy) { session in
        guard let result = try lua.call(projection, session.view()).first else { return .null }
        return try value(from: result)
      }
    }
  }

  /// An action as Lua code sees it whole: `{ name = "rows[id=42].toggle", pattern = "rows.toggle",
  /// payload = …, id = 42 }` (a plain reducer's `action`, a test store's receive predicate's).
  static func pushRecord(of action: FeatureAction, onto L: LuaRawStack) throws {
    L.createTable(recordCount: 4)
    L.push(string: action.name)
    L.setField("name", at: -2)
    L.push(string: action.pattern)
    L.setField("pattern", at: -2)
    try action.payload.push(onto: L)
    L.setField("payload", at: -2)
    if let id = action.firstID {
      try id.push(onto: L)
      L.setField("id", at: -2)
    }
  }

  /// One Lua reducer call over `state`: the views' session opened, the handler at `handler` called
  /// (or `call` when `handler` is nil), the session closed (or undone if the call raised), and
  /// what the call returned as an effect. Straight-line code: this is the hot path of every send.
  @inline(__always)
  private func runLua(
    feature: FeatureDefinition, state: inout Value, action: FeatureAction, handler: Int32? = nil,
    argumentCount: Int32 = 4, _ call: () throws -> LuaValue?
  ) -> Effect<FeatureAction> {
    let returned: LuaValue?
    do {
      try views.openSession(moving: &state)
      // (A reducer of a feature with shares below: its reads into them may need the holders
      // brought up to date first, see `SharedReadBarrier`.)
      if let barrier = sharedReadBarrierUnretained, feature.holdsSharesBelow {
        withUnretained(barrier) { $0.arm(views, for: feature) }
      }
      do {
        // `handler` is a constant where this is inlined: one of the two calls remains.
        if let handler {
          returned = try callHandler(handler, argumentCount: argumentCount, action: action)
        } else {
          returned = try call()
        }
      } catch {
        views.abortSession(returningTo: &state)
        throw error
      }
      try views.closeSession(
        returningTo: &state, anchor: views.sessionNeedsAnchor ? anchor(forLeafAction: action) : .none)
      guard let returned else { return .none }
      return try LuaEffects.effect(from: returned, feature: feature, host: self)
    } catch {
      return reducerFailure(error, feature: feature, action: action)
    }
  }

  /// A reducer's error as the effect that fails the send (kept for `lastReducerError`).
  func reducerFailure(_ error: any Error, feature: FeatureDefinition, action: FeatureAction) -> Effect<FeatureAction> {
    let failure = reducerError(error, feature: feature, action: action)
    lastReducerError = failure
    return .failure(failure)
  }

  func reducerError(_ error: any Error, feature: FeatureDefinition, action: FeatureAction) -> ReluaError {
    switch error {
    case let error as ReluaError: return error
    case LuaError.runtime(let message, let traceback):
      return .reducer(feature: feature.name, action: action.description, message: message, traceback: traceback)
    case let error as LuaError:
      return .reducer(feature: feature.name, action: action.description, message: error.message, traceback: nil)
    default:
      return .reducer(feature: feature.name, action: action.description, message: "\(error)", traceback: nil)
    }
  }
}


extension ReluaHost {
  /// The first result of a call (nil when there is none or it is nil).
  static func firstResult(_ lua: LuaState, _ L: LuaRawStack, _ first: Int32, _ count: Int32) -> LuaValue? {
    guard count > 0, L.type(at: first) != .nil else { return nil }
    return lua.value(at: first, in: L.rawState)
  }
}
