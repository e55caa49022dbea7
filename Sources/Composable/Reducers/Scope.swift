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
  /// The child state's byte offset in the parent state (see `StateLens.offset`), or -1: the hot path
  /// reads only this integer, the action lens and the child (no enum or key path copied per action).
  @usableFromInline let childOffset: Int
  @usableFromInline let toChildAction: CaseLens<ParentAction, Child.Action>
  @usableFromInline let child: Child
  /// Where the operator was declared, for warnings (a Swift `fileID` or a script's `file:line`).
  @usableFromInline let fileID: String
  @usableFromInline let line: UInt
  var place: String { line == 0 ? fileID : "\(fileID):\(line)" }

  /// A child feature whose state is the stored property at `state`, modified in place.
  @inlinable
  public init<ChildState, ChildAction>(
    state: WritableKeyPath<ParentState, ChildState> & Sendable,
    action: CaseLens<ParentAction, ChildAction>,
    fileID: StaticString = #fileID, line: UInt = #line,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(lens: .lens(StateLens(state)), action: action, child: child(), fileID: "\(fileID)", line: line)
  }

  /// A child feature whose state is reached through a lens (possibly derived).
  public init<ChildState, ChildAction>(
    state: StateLens<ParentState, ChildState>,
    action: CaseLens<ParentAction, ChildAction>,
    fileID: StaticString = #fileID, line: UInt = #line,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(lens: .lens(state), action: action, child: child(), fileID: "\(fileID)", line: line)
  }

  /// A scope whose warnings name `place` (a host's own location, e.g. a script's `file:line`).
  public init<ChildState, ChildAction>(
    state: StateLens<ParentState, ChildState>,
    action: CaseLens<ParentAction, ChildAction>,
    place: String,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(lens: .lens(state), action: action, child: child(), fileID: place, line: 0)
  }

  /// A child feature whose state is one case of an enum state; an action for it while another case
  /// is current is a runtime warning.
  public init<ChildState, ChildAction>(
    stateCase: CaseLens<ParentState, ChildState>,
    action: CaseLens<ParentAction, ChildAction>,
    fileID: StaticString = #fileID, line: UInt = #line,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(lens: .enumCase(stateCase), action: action, child: child(), fileID: "\(fileID)", line: line)
  }

  @usableFromInline
  init(lens: ChildState, action: CaseLens<ParentAction, Child.Action>, child: Child, fileID: String, line: UInt) {
    self.toChildState = lens
    if case let .lens(stateLens) = lens { self.childOffset = stateLens.offset } else { self.childOffset = -1 }
    self.toChildAction = action
    self.child = child
    self.fileID = fileID
    self.line = line
  }

  /// Runs the child's reducer on its part of the state for a child action; other actions pass by.
  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(action) else { return .none }
    let effect: Effect<Child.Action>
    if childOffset >= 0 {
      effect = _modifyStored(&state, at: childOffset) { child.reduce(into: &$0, action: childAction) }
    } else {
      effect = reduceSlow(&state, childAction, action)
    }
    // Most actions return no effect: nothing to map (and no closure retained).
    if effect.isNone { return .none }
    return effect._map(toChildAction.embed)
  }

  /// Derived (closure) lenses, key paths without a stored offset, and enum states.
  @inlinable
  func reduceSlow(_ state: inout ParentState, _ childAction: Child.Action, _ action: ParentAction) -> Effect<Child.Action> {
    switch toChildState {
    case let .lens(lens):
      return lens.modify(&state) { child.reduce(into: &$0, action: childAction) }
    case let .enumCase(stateCase):
      return reduceCase(stateCase, &state, childAction, action)
    }
  }

  @usableFromInline
  func reduceCase(
    _ stateCase: CaseLens<ParentState, Child.State>, _ state: inout ParentState,
    _ childAction: Child.Action, _ action: ParentAction
  ) -> Effect<Child.Action> {
    guard var childState = stateCase.extract(state) else {
      RuntimeWarnings.report(
        """
        A "Scope" at "\(place)" received a child action when child state was set to a different \
        case. Action: \(describe(action)). State: \(describe(state)). The action was ignored.
        """
      )
      return .none
    }
    let effect = child.reduce(into: &childState, action: childAction)
    state = stateCase.embed(childState)
    return effect
  }

  /// The child's navigation nodes in its part of the state (none while another case is current).
  public func navigationNodes(in state: ParentState) -> [NavigationNode] {
    switch toChildState {
    case let .lens(lens): return child.navigationNodes(in: lens.get(state))
    case let .enumCase(stateCase): return stateCase.extract(state).map(child.navigationNodes(in:)) ?? []
    }
  }
}
