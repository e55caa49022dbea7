/// Runs a child reducer on an optional part of the state while it is non-nil; the child runs before
/// the parent. A child action while the child is nil is a runtime warning and is ignored: neither
/// the child nor the parent runs, nothing changes (TCA lets the parent see it; a parent acting on
/// a child that is not there is the logic error the warning reports).
/// When the parent sets the child to nil — or, for a child with an identity (TCA's `ifLet` over
/// an `Identifiable` state), replaces it with one of another identity — the old child's effects
/// are cancelled, and their actions never arrive.
public struct IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  let child: Child
  let toChildState: StateLens<Parent.State, Child.State?>
  let toChildAction: CaseLens<Parent.Action, Child.Action>
  let navigationID: NavigationID
  /// The child's identity (nil: the child is one, whatever its state).
  var identity: ((Child.State) -> AnyHashableSendable)?

  /// The navigation id of the child in `state` (its identity's own, when it has one).
  func navigationID(of childState: Child.State) -> NavigationID {
    guard let identity else { return navigationID }
    return NavigationID(scope: navigationID.scope, id: identity(childState))
  }
  /// Where the operator was declared, for warnings (a Swift `fileID` or a script's `file:line`).
  let fileID: String
  let line: UInt
  var place: String { line == 0 ? fileID : "\(fileID):\(line)" }

  /// Runs the child's reducer for a child action while the child is there, then the parent's;
  /// cancels a gone child's effects.
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    var childEffects = Effect<Parent.Action>.none
    let initial = toChildState.get(state)
    let wasPresent = initial != nil
    // (Without an identity the child's id is fixed: no closure call on the common path.)
    let initialID: NavigationID? = initial.map { identity == nil ? navigationID : navigationID(of: $0) }
    if let childAction = toChildAction.extract(action) {
      if let initialID {
        childEffects = toChildState.modify(&state) { childState in
          child.reduce(into: &childState!, action: childAction)
        }
        .map(toChildAction.embed)
        .scoped(to: initialID)
      } else {
        RuntimeWarnings.report(
          """
          An "ifLet" at "\(place)" received a child action when child state was nil. \
          Action: \(describe(action)). The action was ignored.
          """
        )
        return .none
      }
    }
    let parentEffects = parent.reduce(into: &state, action: action)
    if wasPresent, let initialID {
      let final = toChildState.get(state)
      if final == nil || (identity != nil && navigationID(of: final!) != initialID) {
        return .merge(childEffects, parentEffects, .cancel(child: initialID))
      }
    }
    return childEffects.isNone ? parentEffects : .merge(childEffects, parentEffects)
  }

  /// The parent's navigation nodes, then the child's while it is there.
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
  /// `identity`: the child's identity, when it has one (a new identity is a new child).
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ state: StateLens<State, ChildState?>,
    action: CaseLens<Action, ChildAction>,
    identity: ((ChildState) -> AnyHashableSendable)? = nil,
    fileID: String = #fileID, line: UInt = #line,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> IfLetReducer<Self, Child> where ChildState == Child.State, ChildAction == Child.Action {
    IfLetReducer(
      parent: self, child: child(), toChildState: state, toChildAction: action,
      navigationID: NavigationID(scope: state.identity, id: "ifLet"), identity: identity, fileID: "\(fileID)", line: line)
  }

  /// Embeds an optional child whose state is `Identifiable` (TCA's `ifLet` over one): replacing it
  /// with a child of another `id` cancels the old one's effects.
  public func ifLet<ChildState: Identifiable, ChildAction, Child: Reducer>(
    _ state: WritableKeyPath<State, ChildState?> & Sendable,
    action: CaseLens<Action, ChildAction>,
    fileID: StaticString = #fileID, line: UInt = #line,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> IfLetReducer<Self, Child>
  where ChildState == Child.State, ChildAction == Child.Action, ChildState.ID: Sendable {
    ifLet(StateLens(state), action: action, identity: { AnyHashableSendable($0.id) }, fileID: "\(fileID)", line: line, then: child)
  }
}
