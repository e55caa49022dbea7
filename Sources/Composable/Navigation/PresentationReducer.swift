/// Presents one child (of one or several kinds) from optional state; the navigation operator behind
/// sheets, alerts and destinations.
///
/// - The child runs before the parent. `.presented` or `.dismiss` while nothing is presented is a
///   runtime warning and the action is ignored: the parent does not see it either (TCA's does; a
///   parent acting on a destination that is not there is the logic error the warning reports).
/// - On `.dismiss` the parent runs first (it still sees the child), then the child is cleared.
/// - The presented child has an identity (`identity(state)`: the id of an Identifiable state, an
///   alert's id, else its enum case). When it goes away or its identity changes, its effects are
///   cancelled.
/// - Ephemeral children (alerts, dialogs) are dismissed after any of their actions, unless the parent
///   replaced them with a new one meanwhile.
/// - The child's effects can call the `dismiss` dependency, which makes the store receive `.dismiss`.
public struct PresentationReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  let parent: Parent
  let destination: Destination
  let toPresentationState: StateLens<Parent.State, PresentationState<Destination.State>>
  let toPresentationAction: CaseLens<Parent.Action, PresentationAction<Destination.Action>>
  let identity: (Destination.State) -> AnyHashableSendable
  let isEphemeral: (Destination.State) -> Bool
  /// For a presented action that is not for the destination presented now (an enum destination:
  /// another case than the one presented), the name of the one presented; nil when it is. Such an
  /// action is a runtime warning and changes nothing below this node: an alert showing stays
  /// (only its own buttons dismiss it); the parent does not see it either.
  var otherThanPresented: (Destination.State, Destination.Action) -> String? = { _, _ in nil }
  /// Where the operator was declared, for warnings (a Swift `fileID` or a script's `file:line`).
  let fileID: String
  let line: UInt
  var place: String { line == 0 ? fileID : "\(fileID):\(line)" }

  func navigationID(_ state: Destination.State) -> NavigationID {
    NavigationID(scope: toPresentationState.identity, id: identity(state))
  }

  /// Runs the destination's reducer for its actions, then the parent's; dismisses, cancels and
  /// clears as the rules above say.
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let initial = toPresentationState.get(state).wrappedValue
    let initialID = initial.map(navigationID)
    let presentationAction = toPresentationAction.extract(action)

    var destinationEffects = Effect<Parent.Action>.none
    var ephemeralHandled = false
    switch presentationAction {
    case let .presented(childAction)?:
      if let initial, let presented = otherThanPresented(initial, childAction) {
        RuntimeWarnings.report(
          """
          A presentation at "\(place)" received an action for another destination while \
          '\(presented)' is presented. Action: \(describe(action)). The action was ignored; \
          '\(presented)' stays.
          """
        )
        return .none
      } else if let initialID {
        let embed = toPresentationAction.embed
        destinationEffects = toPresentationState.modify(&state) { presentation in
          destination.reduce(into: &presentation.wrappedValue!, action: childAction)
        }
        .map { embed(.presented($0)) }
        .withDismissHandler(sending: embed(.dismiss))
        .scoped(to: initialID)
        ephemeralHandled = initial.map(isEphemeral) ?? false
      } else {
        RuntimeWarnings.report(
          """
          A presentation ("ifLet") at "\(place)" received a presentation action when destination \
          state was absent. Action: \(describe(action)). The action was ignored.
          """
        )
        return .none
      }
    case .dismiss?:
      if initial == nil {
        RuntimeWarnings.report(
          """
          A presentation ("ifLet") at "\(place)" received a dismiss action when destination \
          state was absent. Action: \(describe(action)). The action was ignored.
          """
        )
        return .none
      }
    case nil:
      break
    }

    let parentEffects = parent.reduce(into: &state, action: action)

    // The parent saw the child; now clear it (unless the parent replaced it meanwhile).
    if case .dismiss? = presentationAction, let initialID,
      let current = toPresentationState.get(state).wrappedValue, navigationID(current) == initialID
    {
      toPresentationState.modify(&state) { $0.wrappedValue = nil }
    }
    if ephemeralHandled, let initialID,
      let current = toPresentationState.get(state).wrappedValue, navigationID(current) == initialID
    {
      toPresentationState.modify(&state) { $0.wrappedValue = nil }
    }

    let finalID = toPresentationState.get(state).wrappedValue.map(navigationID)
    var effects = [destinationEffects, parentEffects]
    if let initialID, initialID != finalID {
      effects.append(.cancel(child: initialID))
    }
    return .merge(effects)
  }

  /// The parent's navigation nodes, then the presented destination's node (with what it presents).
  public func navigationNodes(in state: Parent.State) -> [NavigationNode] {
    var nodes = parent.navigationNodes(in: state)
    if let child = toPresentationState.get(state).wrappedValue {
      nodes.append(
        NavigationNode(
          kind: .destination, id: navigationID(child), state: child,
          children: destination.navigationNodes(in: child)))
    }
    return nodes
  }
}

/// The default identity of a presented child: its id when Identifiable (an alert's id), else its enum
/// case (so swapping the kind of a destination changes the identity, editing its contents does not).
public func defaultPresentationIdentity(_ state: Any) -> AnyHashableSendable {
  if let ephemeral = ephemeralState(in: state) { return AnyHashableSendable(ephemeral.ephemeralID) }
  if let identifiable = state as? any Identifiable {
    return identityOf(identifiable)
  }
  return AnyHashableSendable(caseName(of: state))
}

extension Reducer {
  /// Presents a destination stored at `state` (see `PresentationReducer`).
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ state: WritableKeyPath<State, PresentationState<DestinationState>> & Sendable,
    action: CaseLens<Action, PresentationAction<DestinationAction>>,
    identity: ((DestinationState) -> AnyHashableSendable)? = nil,
    isEphemeral: ((DestinationState) -> Bool)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination
  ) -> PresentationReducer<Self, Destination>
  where Destination.State == DestinationState, Destination.Action == DestinationAction {
    presentation(
      StateLens(state), action: action, identity: identity, isEphemeral: isEphemeral, fileID: "\(fileID)", line: line,
      destination: destination)
  }

  /// Presents an alert or dialog that has no reducer of its own (its buttons' actions go to the parent).
  public func ifLet<AlertAction>(
    _ state: WritableKeyPath<State, PresentationState<AlertState<AlertAction>>> & Sendable,
    action: CaseLens<Action, PresentationAction<AlertAction>>,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> PresentationReducer<Self, EmptyReducer<AlertState<AlertAction>, AlertAction>> {
    presentation(StateLens(state), action: action, fileID: "\(fileID)", line: line) { EmptyReducer() }
  }

  /// Presents a destination reached through a lens, with identity and "ephemeral" given as functions
  /// (for dynamic host state, e.g. the destination's kind field).
  public func presentation<DestinationState, DestinationAction, Destination: Reducer>(
    _ state: StateLens<State, PresentationState<DestinationState>>,
    action: CaseLens<Action, PresentationAction<DestinationAction>>,
    identity: ((DestinationState) -> AnyHashableSendable)? = nil,
    isEphemeral: ((DestinationState) -> Bool)? = nil,
    otherThanPresented: ((DestinationState, DestinationAction) -> String?)? = nil,
    fileID: String = #fileID, line: UInt = #line,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination
  ) -> PresentationReducer<Self, Destination>
  where Destination.State == DestinationState, Destination.Action == DestinationAction {
    var reducer = PresentationReducer(
      parent: self, destination: destination(), toPresentationState: state, toPresentationAction: action,
      identity: identity ?? { defaultPresentationIdentity($0) },
      isEphemeral: isEphemeral ?? { ephemeralState(in: $0) != nil },
      fileID: "\(fileID)", line: line)
    if let otherThanPresented { reducer.otherThanPresented = otherThanPresented }
    return reducer
  }
}

private func identityOf<T: Identifiable>(_ value: T) -> AnyHashableSendable {
  // Ids are values (UUIDs, ints, strings); the box only compares and hashes them.
  nonisolated(unsafe) let id = value.id
  return AnyHashableSendable(UncheckedHashable(base: id))
}

private struct UncheckedHashable<Base: Hashable>: Hashable, @unchecked Sendable {
  let base: Base
}
