import Composable

/// `path.push` with `{ id = n, <kind> = state }` (TCA's `StackAction.push(id:state:)`), sent by a
/// test, a parent's effect or the REPL: checked before the stack operator sees it. The element
/// must be one declared kind with a state that fits that feature, and its id an integer not in
/// the stack; otherwise the send fails with a message naming the stack and its feature, and
/// nothing changes. Without an `id` the element gets the store's next stack element id (as
/// `relua.push` gives it); an id at or past that moves the store's counter past it, so ids still
/// never repeat.
struct StackPush: Reducer {
  typealias State = Value
  typealias Action = FeatureAction

  let base: AnyFeatureReducer
  let key: String
  let kinds: [String: FeatureChild.Destination]
  /// The feature that holds the stack, and where the stack is declared (for messages).
  let owner: String
  let place: String

  func reduce(into state: inout Value, action: FeatureAction) -> Effect<FeatureAction> {
    guard action.head == key, action.steps.count == 2, case .name("push")? = action.steps.last else {
      return base.reduce(into: &state, action: action)
    }
    let element: Value
    do {
      element = try callOnMainActor({ @MainActor (push: Self, call: (Value, Value)) in
        Result { try push.element(from: call.0, stack: call.1) }
      }, self, (action.payload, state[key: key])).get()
    } catch {
      return .failure(error)
    }
    return base.reduce(into: &state, action: FeatureAction(steps: action.steps, payload: element))
  }

  @MainActor
  private func element(from payload: Value, stack: Value) throws -> Value {
    func fail(_ why: String) -> ReluaError {
      .badAction("\(key).push of \(owner) (the stack at \(place)): \(why); nothing was pushed")
    }
    let declared = kinds.keys.sorted().joined(separator: ", ")
    guard case .record(let record) = payload else {
      throw fail("expected { id = n, <kind> = state } with a kind of \(declared), got \(describeValue(payload))")
    }
    let kindKeys = record.keys.filter { $0 != "id" }
    guard kindKeys.count == 1, let kind = kindKeys.first else {
      throw fail(kindKeys.isEmpty
        ? "the element names no kind (the stack holds \(declared))"
        : "the element names \(kindKeys.count) kinds (\(kindKeys.sorted().joined(separator: ", "))); give one of \(declared)")
    }
    guard let destination = kinds[kind] else {
      throw fail("'\(kind)' is not a kind of this stack; it holds \(declared)")
    }
    var kindState = record[kind]
    switch destination {
    case .feature(let feature):
      do {
        try FeatureStateCheck.check(kindState, against: feature)
      } catch let error as ReluaError {
        throw fail("the \(kind) state does not fit \(feature.name): \(error.description)")
      }
      kindState = FeatureStateShape.conform(kindState, to: feature)
    case .alert:
      guard case .record = kindState else { throw fail("an alert's state is a table { title = …, buttons = … }") }
    }
    let ids = Set(stack.asIdentified.ids)
    let generator = DependencyValues.current.stackElementID
    let id: Int
    switch record["id"] {
    case .null:
      let past = ids.compactMap { if case .integer(let id) = $0, id < .max { Int(id) + 1 } else { nil } }.max() ?? 0
      id = generator.next(atLeast: past)
    case .integer(let given) where given >= 0 && given < Int64(Int.max):
      guard !ids.contains(.integer(given)) else {
        throw fail("the stack already holds an element with id \(given)")
      }
      id = Int(given)
      if id >= generator.peek { _ = generator.next(atLeast: id) }
    case let other:
      throw fail("the id must be an integer from 0, got \(describeValue(other))")
    }
    return .record(ValueRecord([("id", .integer(Int64(id))), (kind, kindState)]))
  }

  func navigationNodes(in state: Value) -> [NavigationNode] { base.navigationNodes(in: state) }
}
