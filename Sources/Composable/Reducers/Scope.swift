/// Runs a child reducer on a part of the parent state for the child's actions.
///
/// The part is a stored property (`WritableKeyPath`, modified in place), a derived value (`StateLens`
/// with get/set: the child can only change what `set` writes back), or one case of an enum state
/// (`CaseLens`: an action arriving while another case is current is a runtime warning).
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  @usableFromInline
  enum ChildState {
    case lens(StateLens<ParentState, Child.State>)
    case enumCase(CaseLens<ParentState, Child.State>)
  }

  @usableFromInline let toChildState: ChildState
  @usableFromInline let toChildAction: CaseLens<ParentAction, Child.Action>
  @usableFromInline let child: Child
  let fileID: StaticString
  let line: UInt

  @inlinable
  public init<ChildState, ChildAction>(
    state: WritableKeyPath<ParentState, ChildState> & Sendable,
    action: CaseLens<ParentAction, ChildAction>,
    fileID: StaticString = #fileID, line: UInt = #line,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(lens: .lens(StateLens(state)), action: action, child: child(), fileID: fileID, line: line)
  }

  public init<ChildState, ChildAction>(
    state: StateLens<ParentState, ChildState>,
    action: CaseLens<ParentAction, ChildAction>,
    fileID: StaticString = #fileID, line: UInt = #line,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(lens: .lens(state), action: action, child: child(), fileID: fileID, line: line)
  }

  public init<ChildState, ChildAction>(
    stateCase: CaseLens<ParentState, ChildState>,
    action: CaseLens<ParentAction, ChildAction>,
    fileID: StaticString = #fileID, line: UInt = #line,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(lens: .enumCase(stateCase), action: action, child: child(), fileID: fileID, line: line)
  }

  @usableFromInline
  init(lens: ChildState, action: CaseLens<ParentAction, Child.Action>, child: Child, fileID: StaticString, line: UInt) {
    self.toChildState = lens
    self.toChildAction = action
    self.child = child
    self.fileID = fileID
    self.line = line
  }

  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(action) else { return .none }
    switch toChildState {
    case let .lens(lens):
      return lens.modify(&state) { child.reduce(into: &$0, action: childAction) }.map(toChildAction.embed)
    case let .enumCase(stateCase):
      return reduceCase(stateCase, &state, childAction, action)
    }
  }

  @usableFromInline
  func reduceCase(
    _ stateCase: CaseLens<ParentState, Child.State>, _ state: inout ParentState,
    _ childAction: Child.Action, _ action: ParentAction
  ) -> Effect<ParentAction> {
    guard var childState = stateCase.extract(state) else {
      RuntimeWarnings.report(
        """
        A "Scope" at "\(fileID):\(line)" received a child action when child state was set to a different \
        case. Action: \(describe(action)). State: \(describe(state)). The action was ignored.
        """
      )
      return .none
    }
    let effect = child.reduce(into: &childState, action: childAction)
    state = stateCase.embed(childState)
    return effect.map(toChildAction.embed)
  }

  public func navigationNodes(in state: ParentState) -> [NavigationNode] {
    switch toChildState {
    case let .lens(lens): return child.navigationNodes(in: lens.get(state))
    case let .enumCase(stateCase): return stateCase.extract(state).map(child.navigationNodes(in:)) ?? []
    }
  }
}
