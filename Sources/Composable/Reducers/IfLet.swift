/// Runs a child reducer on an optional part of the state while it is non-nil; the child runs before
/// the parent. A child action while the child is nil is a runtime warning and the child ignores it.
/// When the parent sets the child to nil, the child's effects are cancelled.
public struct IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  let child: Child
  let toChildState: StateLens<Parent.State, Child.State?>
  let toChildAction: CaseLens<Parent.Action, Child.Action>
  let navigationID: NavigationID
  /// Where the operator was declared, for warnings (a Swift `fileID` or a script's `file:line`).
  let fileID: String
  let line: UInt
  var place: String { line == 0 ? fileID : "\(fileID):\(line)" }

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    var childEffects = Effect<Parent.Action>.none
    let wasPresent = toChildState.get(state) != nil
    if let childAction = toChildAction.extract(action) {
      if wasPresent {
        childEffects = toChildState.modify(&state) { childState in
          child.reduce(into: &childState!, action: childAction)
        }
        .map(toChildAction.embed)
        .scoped(to: navigationID)
      } else {
        RuntimeWarnings.report(
          """
          An "ifLet" at "\(place)" received a child action when child state was nil. \
          Action: \(describe(action)). The action was ignored.
          """
        )
      }
    }
    let parentEffects = parent.reduce(into: &state, action: action)
    if wasPresent && toChildState.get(state) == nil {
      return .merge(childEffects, parentEffects, .cancel(child: navigationID))
    }
    return childEffects.isNone ? parentEffects : .merge(childEffects, parentEffects)
  }

  public func navigationNodes(in state: Parent.State) -> [NavigationNode] {
    parent.navigationNodes(in: state) + (toChildState.get(state).map(child.navigationNodes(in:)) ?? [])
  }
}

extension Reducer {
  /// Embeds an optional child feature stored at `state` (see `IfLetReducer`).
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ state: WritableKeyPath<State, ChildState?> & Sendable,
    action: CaseLens<Action, ChildAction>,
    fileID: StaticString = #fileID, line: UInt = #line,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> IfLetReducer<Self, Child> where ChildState == Child.State, ChildAction == Child.Action {
    ifLet(StateLens(state), action: action, fileID: "\(fileID)", line: line, then: child)
  }

  /// Embeds an optional child reached through a lens (e.g. a dynamic field of a host value).
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ state: StateLens<State, ChildState?>,
    action: CaseLens<Action, ChildAction>,
    fileID: String = #fileID, line: UInt = #line,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> IfLetReducer<Self, Child> where ChildState == Child.State, ChildAction == Child.Action {
    IfLetReducer(
      parent: self, child: child(), toChildState: state, toChildAction: action,
      navigationID: NavigationID(scope: state.identity, id: "ifLet"), fileID: "\(fileID)", line: line)
  }
}
