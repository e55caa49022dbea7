import Composable
import Lua

/// A feature's own logic: its binding actions, then its Lua handler for the action (if any).
/// Also each further reducer of a feature's own (`relua.reduce`), without the bindings.
/// Actions no handler names cost no Lua call. A raising handler leaves the state exactly as it
/// was and returns `Effect.failure`, which the store turns into the error the sender sees.
struct LuaLeafReducer: Reducer {
  typealias State = Value
  typealias Action = FeatureAction

  let feature: FeatureDefinition
  let host: ReluaHost
  /// The handlers this reducer runs: the feature's `reduce`, or a `relua.reduce` entry's.
  let own: FeatureOwnReducer
  private let lastHandler = LastHandler()
  /// Whether the feature declares bindable fields (a flag here: the check runs on every action).
  private let isBindable: Bool

  /// The feature's own reducer, with its bindings.
  init(feature: FeatureDefinition, host: ReluaHost) {
    self.feature = feature
    self.host = host
    own = feature.own
    isBindable = !feature.bindable.isEmpty
  }

  /// A further reducer of the feature's own (`relua.reduce` in `compose`).
  init(feature: FeatureDefinition, host: ReluaHost, reducer: FeatureOwnReducer) {
    self.feature = feature
    self.host = host
    own = reducer
    isBindable = false
  }

  /// The handler found for the last action name (a send loop, typing, a timer's ticks repeat one
  /// action): comparing the name with the last one is cheaper than hashing it.
  /// Kept as the function's registry reference (no retain, no release per send): the feature's
  /// `handlers` holds the function as long as this reducer lives.
  private final class LastHandler: @unchecked Sendable {  // used on the main actor only
    var name = ""
    var handler: Int32?
    var argumentCount: Int32 = 4
  }

  func reduce(into state: inout Value, action: FeatureAction) -> Effect<FeatureAction> {
    // Stores run reducers on the main actor, where the Lua state lives. The state goes by
    // pointer, through a plain function: a closure would need a context (an allocation per send).
    // (A closure literal, not `Self.reduceIsolated`: a method used as a function value is a thunk
    // calling the method, a call level more per send.)
    withUnsafeMutablePointer(to: &state) { state in
      callOnMainActor(
        { @MainActor (call: Call) in call.reducer.reduceOnMainActor(&call.state.pointee, call.action) },
        Call(reducer: self, state: state, action: action))
    }
  }

  private struct Call {
    let reducer: LuaLeafReducer
    let state: UnsafeMutablePointer<Value>
    let action: FeatureAction
  }

  /// The reducer's body, on the main actor: inlined into the closure `reduce` calls it through,
  /// and into a leaf root store's reduce function (`LeafRootReducer`), which the store calls on
  /// the main actor directly (one call level less per send).
  @MainActor @inline(__always)
  func reduceOnMainActor(_ state: inout Value, _ action: FeatureAction) -> Effect<FeatureAction> {
    if isBindable, action.head == "binding", action.steps.count >= 2,
      case .name(let field)? = action.steps.last
    {
      if action.steps.count > 2 {
        if let failure = applyNestedBinding(action, to: &state) { return failure }
      } else if let failure = applyBinding(field, action.payload, to: &state) {
        return failure
      }
    }
    if action.steps.count == 1, let name = action.head {
      if name != lastHandler.name {
        let found = own.handlers[name]
        lastHandler.handler = found?.function.registryReference
        lastHandler.argumentCount = found?.argumentCount ?? 4
        lastHandler.name = name
      }
      if let handler = lastHandler.handler {
        return host.runHandler(
          handler, argumentCount: lastHandler.argumentCount, feature: feature, state: &state, action: action)
      }
    } else if !own.handlers.isEmpty, let handler = own.handlers[action.pattern] {
      return host.runHandler(
        handler.function.registryReference, argumentCount: handler.argumentCount, feature: feature,
        state: &state, action: action)
    }
    if let reduceFunction = own.reduceFunction {
      return host.runReduceFunction(reduceFunction, feature: feature, state: &state, action: action)
    }
    return .none
  }

  /// `binding.field(value)`: sets the field, keeping its kind (a string field takes strings).
  @MainActor
  private func applyBinding(_ field: String, _ value: Value, to state: inout Value) -> Effect<FeatureAction>? {
    let current = state[key: field]
    guard Self.bindingFits(current, value) else {
      return .failure(ReluaError.badAction(
        "binding.\(field) of \(feature.name): the field holds \(describeValue(current)), got \(describeValue(value))"))
    }
    // Logged for the send's transaction (the binding's own steps are `binding.field`).
    host.recordEngineWrite(ofField: field, old: current, forLeafAction: FeatureAction(steps: [.name("binding"), .name(field)]))
    if case (.float, .integer(let integer)) = (current, value) {
      state[key: field] = .float(Double(integer))
    } else {
      state[key: field] = value
    }
    return nil
  }
}
