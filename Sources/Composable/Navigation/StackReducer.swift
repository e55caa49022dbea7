/// Runs element reducers on a navigation stack (the stack counterpart of `forEach`).
/// - `.element(id:action:)`: the element runs, then the parent; a missing id is a runtime warning
///   and the action is ignored (the parent does not see it either; TCA's does).
/// - `.popFrom(id:)`: the parent runs first (it still sees the elements), then the element and all
///   after it are removed; a missing id is a runtime warning and the action is ignored.
/// - `.push(id:state:)`: the element is pushed with that id, then the parent runs (it sees the
///   pushed element, as in TCA at its HEAD); an id already in the stack is a runtime warning and
///   pushes nothing.
/// Removed elements get their effects cancelled; an element's `dismiss` dependency sends `.popFrom`.
public struct StackReducer<Parent: Reducer, Element: Reducer>: Reducer {
  let parent: Parent
  let element: Element
  let toStack: StateLens<Parent.State, StackState<Element.State>>
  let toStackAction: CaseLens<Parent.Action, StackAction<Element.State, Element.Action>>
  /// Where the operator was declared, for warnings (a Swift `fileID` or a script's `file:line`).
  let fileID: String
  let line: UInt
  var place: String { line == 0 ? fileID : "\(fileID):\(line)" }

  func navigationID(_ id: StackElementID) -> NavigationID {
    NavigationID(scope: toStack.identity, id: id)
  }

  /// Runs an element's reducer for its actions, then the parent's; pushes and pops; cancels removed
  /// elements' effects.
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let stackAction = toStackAction.extract(action)
    var elementEffects = Effect<Parent.Action>.none
    if case let .element(id, elementAction)? = stackAction {
      let effect = toStack.modify(&state) { stack -> Effect<Element.Action>? in
        guard stack[id: id] != nil else { return nil }
        return element.reduce(into: &stack[id: id]!, action: elementAction)
      }
      if let effect {
        let embed = toStackAction.embed
        elementEffects = effect.map { embed(.element(id: id, action: $0)) }
          .withDismissHandler(sending: embed(.popFrom(id: id)))
          .scoped(to: navigationID(id))
      } else {
        warn("received an action for a missing element (id: \(id))", action)
        return .none
      }
    }
    if case let .popFrom(id)? = stackAction, !toStack.get(state).ids.contains(id) {
      warn("received \"popFrom\" for a missing element (id: \(id))", action)
      return .none
    }
    let idsBefore = toStack.get(state).ids
    if case let .push(id, elementState)? = stackAction {
      if idsBefore.contains(id) {
        warn("received \"push\" for an element it already contains (id: \(id))", action)
      } else {
        toStack.modify(&state) { $0.insert(elementState, id: id) }
      }
    }
    let parentEffects = parent.reduce(into: &state, action: action)

    switch stackAction {
    case let .popFrom(id)?:
      if toStack.get(state).ids.contains(id) { toStack.modify(&state) { $0.pop(from: id) } }
    default:
      break
    }

    let idsAfter = toStack.get(state).ids
    let removed = idsBefore == idsAfter ? [] : idsBefore.filter { !idsAfter.contains($0) }
    return .merge([elementEffects, parentEffects] + removed.map { .cancel(child: navigationID($0)) })
  }

  func warn(_ what: String, _ action: Parent.Action) {
    RuntimeWarnings.report(
      "A \"forEach\" (stack) at \"\(place)\" \(what). Action: \(describe(action)). The action was ignored.")
  }

  /// The parent's navigation nodes, then one node per element, bottom to top.
  public func navigationNodes(in state: Parent.State) -> [NavigationNode] {
    let stack = toStack.get(state)
    return parent.navigationNodes(in: state)
      + zip(stack.ids, stack.elements).map { id, elementState in
        NavigationNode(
          kind: .stackElement, id: navigationID(id), state: elementState,
          children: element.navigationNodes(in: elementState))
      }
  }
}

extension Reducer {
  /// Embeds a navigation stack of element features (see `StackReducer`).
  public func forEach<ElementState, ElementAction, Element: Reducer>(
    _ stack: WritableKeyPath<State, StackState<ElementState>> & Sendable,
    action: CaseLens<Action, StackAction<ElementState, ElementAction>>,
    fileID: StaticString = #fileID, line: UInt = #line,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element
  ) -> StackReducer<Self, Element> where Element.State == ElementState, Element.Action == ElementAction {
    self.stack(StateLens(stack), action: action, fileID: "\(fileID)", line: line, element: element)
  }

  /// Embeds a navigation stack reached through a lens.
  public func stack<ElementState, ElementAction, Element: Reducer>(
    _ stack: StateLens<State, StackState<ElementState>>,
    action: CaseLens<Action, StackAction<ElementState, ElementAction>>,
    fileID: String = #fileID, line: UInt = #line,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element
  ) -> StackReducer<Self, Element> where Element.State == ElementState, Element.Action == ElementAction {
    StackReducer(parent: self, element: element(), toStack: stack, toStackAction: action, fileID: "\(fileID)", line: line)
  }
}
