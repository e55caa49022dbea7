import Composable

/// Runs whichever kind a destination (or stack element) currently is: its state is a record
/// `{ <kind> = childState }` (stack elements also carry their `id`), its actions start with the
/// kind's name. Alerts have no reducer: their button actions go to the parent.
struct DestinationReducer: Reducer {
  typealias State = Value
  typealias Action = FeatureAction

  let reducers: [String: AnyFeatureReducer]

  @MainActor
  init(kinds: [String: FeatureChild.Destination], host: ReluaHost) {
    var reducers: [String: AnyFeatureReducer] = [:]
    for (name, destination) in kinds {
      if case .feature(let feature) = destination {
        reducers[name] = FeatureReducerBuilder.reducer(for: feature, host: host)
      }
    }
    self.reducers = reducers
  }

  func reduce(into state: inout Value, action: FeatureAction) -> Effect<FeatureAction> {
    guard let kind = action.head, let reducer = reducers[kind] else { return .none }
    guard !state[key: kind].isNull else {
      RuntimeWarnings.report(
        "An action for '\(kind)' arrived while the destination is \(Self.kind(of: state) ?? "something else"). Action: \(action). The action was ignored.")
      return .none
    }
    let effect = reducer.reduce(into: &state[key: kind], action: action.tail)
    if effect.isNone { return .none }
    return effect.map { $0.prefixed(.name(kind)) }
  }

  func navigationNodes(in state: Value) -> [NavigationNode] {
    guard let kind = Self.kind(of: state), let reducer = reducers[kind] else { return [] }
    return reducer.navigationNodes(in: state[key: kind])
  }

  /// The kind a destination value is: its one key besides `id`.
  static func kind(of state: Value) -> String? {
    guard case .record(let record) = state else { return nil }
    return record.keys.first { $0 != "id" }
  }

  /// A destination's identity: its kind (editing its contents keeps it; swapping the kind does
  /// not), plus the child's own `id` when it has one. An alert has an identity of its own, fresh
  /// each time one is presented (TCA's `AlertState.id`): the storage of the value the script
  /// assigned, which copies share and a new assignment never does — so an alert presented again
  /// while handling the old one's button, even with the same text, is a new alert and stays.
  static func identity(of state: Value, kinds: [String: FeatureChild.Destination]) -> AnyHashableSendable {
    let kind = kind(of: state) ?? ""
    if isAlert(state, kinds: kinds) { return alertIdentity(of: state) }
    let id = state[key: kind][key: "id"]
    return id.isNull ? AnyHashableSendable(kind) : AnyHashableSendable([Value.string(kind), id])
  }

  /// An alert's identity: the storage of the value the script assigned (see above).
  static func alertIdentity(of state: Value) -> AnyHashableSendable {
    guard case .record(let record) = state else { return AnyHashableSendable(state) }
    return AnyHashableSendable(PresentedAlert(storage: record.fields.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }))
  }

  static func isAlert(_ state: Value, kinds: [String: FeatureChild.Destination]) -> Bool {
    guard let kind = kind(of: state), case .alert? = kinds[kind] else { return false }
    return true
  }
}

/// The identity of one presentation of an alert (see `DestinationReducer.identity(of:kinds:)`).
private struct PresentedAlert: Hashable, Sendable {
  let storage: UInt
}
