import Lua

/// The one place that knows the composition kinds (#32): what each `FeatureChild.Kind` means for
/// where the child's state sits, how an action reaches what is below it, and what sits there.
/// The sites that walk the feature tree (action resolution, the reducer, inspection, action
/// paths, state check, state shape, state types, anchors, screens, the console) ask these
/// questions instead of switching over the kinds, so a new kind of composition is described here,
/// once. Sites whose behaviour differs per shape (the reducer's operators, the state check's
/// messages) switch over `storage` and `selectsKind`, not over the kinds.
@MainActor
extension FeatureChild {
  /// Where a child's state sits in its parent's state.
  package enum Storage {
    /// At `state[key]`, always there (a scope).
    case field
    /// Made from the parent's state by a lens's `get`, written back by its `set`.
    case derived
    /// At `state[key]`, or nil when absent (an optional, a presented destination).
    case optionalField
    /// An identified collection at `state[key]`, each element named by its `id` (forEach, stack).
    case elements
  }

  /// Where the child's state sits (the one switch that says it for each kind).
  package var storage: Storage {
    switch kind {
    case .scope: return .field
    case .lens: return .derived
    case .optional, .presented, .presents: return .optionalField
    case .forEach, .stack: return .elements
    }
  }

  /// Whether each child state is `{ <kind> = state }`, one of the declared kinds, and actions name
  /// the kind after the key (or the element's id): `destination.results.…`, `path[id=1].detail.…`.
  package var selectsKind: Bool {
    switch kind {
    case .presents, .stack: return true
    case .scope, .lens, .optional, .forEach, .presented: return false
    }
  }

  /// The declared kinds of a child that selects one, by name; empty for any other.
  package var destinationsByKind: [String: Destination] {
    switch kind {
    case .presents(let kinds), .stack(let kinds): return kinds
    case .scope, .lens, .optional, .forEach, .presented: return [:]
    }
  }

  /// The destination below a child that does not select a kind (its feature, or a presented
  /// alert); nil for one that does.
  package var onlyDestination: Destination? {
    switch kind {
    case .scope(let feature), .lens(let feature, _, _), .optional(let feature), .forEach(let feature):
      return .feature(feature)
    case .presented(let destination): return destination
    case .presents, .stack: return nil
    }
  }

  /// A lens's `get` and `set`; nil for any other child.
  var lensFunctions: (get: LuaFunction, set: LuaFunction)? {
    if case .lens(_, let get, let set) = kind { return (get, set) }
    return nil
  }

  /// The destination an action reaches below the child: the kind's (nil for one that does not
  /// select a kind).
  package func destination(kind: String?) -> Destination? {
    guard let kind else { return onlyDestination }
    return destinationsByKind[kind]
  }

  /// One destination below a child: the kind that selects it (nil for the child's only one).
  package struct Place {
    /// The kind that selects it (presents, stack); nil for the child's only destination.
    package let kind: String?
    /// Its feature, or an alert.
    package let destination: Destination
  }

  /// Every destination below the child, kinds sorted.
  package var places: [Place] {
    if let onlyDestination { return [Place(kind: nil, destination: onlyDestination)] }
    let kinds = destinationsByKind
    return kinds.keys.sorted().map { Place(kind: $0, destination: kinds[$0]!) }
  }

  /// The features below the child (an alert is none), kinds sorted.
  package var features: [FeatureDefinition] {
    places.compactMap { if case .feature(let feature) = $0.destination { return feature } else { return nil } }
  }

  /// Whether the child's actions are `key.<action>` on its one feature and nothing else (a scope,
  /// a lens, an optional).
  package var actionsFollowKey: Bool { storage != .elements && !selectsKind && controlActions.isEmpty }

  /// An action the child itself takes, not its feature: `dismiss`, `popFrom`, `push`.
  package struct ControlAction {
    /// What follows the key: `dismiss`, `popFrom`, `push`.
    package let name: String
    /// Its payload (`.none`: it takes none).
    package let payload: PayloadType
    /// Whether it is there only while something is presented (an inspector offers it then).
    package let whilePresented: Bool
  }

  private static let dismissActions = [ControlAction(name: "dismiss", payload: .none, whilePresented: true)]
  // popFrom takes the id of the first element to pop; push an element `{ id = n, <kind> = state }`.
  private static let stackActions = [
    ControlAction(name: "popFrom", payload: .integer, whilePresented: false),
    ControlAction(name: "push", payload: .table, whilePresented: false),
  ]

  /// The child's own actions (navigation: dismiss a destination, pop or push a stack).
  package var controlActions: [ControlAction] {
    switch kind {
    case .presents, .presented: return Self.dismissActions
    case .stack: return Self.stackActions
    case .scope, .lens, .optional, .forEach: return []
    }
  }

  /// Whether the child presents screens (its destinations can be dismissed or popped).
  package var isNavigation: Bool { !controlActions.isEmpty }

  /// What an action path adds from the parent to reach a place below the child:
  /// `key.`, `key[id=<id>].`, `key.<kind>.`, `key[id=<id>].<kind>.` (`id`: as written, e.g. `ID`).
  package func actionPrefix(id: String?, kind: String?) -> String {
    var text = key
    if let id { text += "[id=" + id + "]" }
    if let kind { text += "." + kind }
    return text + "."
  }

  /// One child state present in a parent's state, and what it is.
  package struct Instance {
    /// The element's id (forEach, stack); nil for a child that is not a collection.
    package let id: Value?
    /// The kind selected (presents, stack); nil for a child that does not select one.
    package let kind: String?
    /// The feature (or alert) whose state it is.
    package let destination: Destination
    /// The destination's state (inside `{ <kind> = state }` for one that selects a kind).
    package let state: Value
  }

  /// The child states present in `parentState`, in order: a scope's (and a lens's: what is at
  /// its key) always, an optional or destination only when present (and of a declared kind), a
  /// collection's elements in order (at most `limit`; an element of no declared kind is left out).
  package func instances(in parentState: Value, limit: Int = .max) -> [Instance] {
    let value = parentState[key: key]
    func instance(_ state: Value, id: Value?) -> Instance? {
      guard selectsKind else { return Instance(id: id, kind: nil, destination: onlyDestination!, state: state) }
      guard let kind = DestinationReducer.kind(of: state), let destination = destinationsByKind[kind] else { return nil }
      return Instance(id: id, kind: kind, destination: destination, state: state[key: kind])
    }
    switch storage {
    case .field, .derived:
      return instance(value, id: nil).map { [$0] } ?? []
    case .optionalField:
      guard !value.isNull else { return [] }
      return instance(value, id: nil).map { [$0] } ?? []
    case .elements:
      return value.asIdentified.elements.prefix(limit).compactMap { instance($0, id: IdentifiedValues.id(of: $0)) }
    }
  }

  /// What the feature accepts at the child, for messages.
  var acceptedPrefix: String {
    switch kind {
    case .scope, .lens, .optional: return "\(key).…"
    case .forEach: return "\(key)[id].…"
    case .presents: return "\(key).<kind>.…, \(key).dismiss"
    case .presented: return "\(key).…, \(key).dismiss"
    case .stack: return "\(key)[id].<kind>.…, \(key).popFrom(id), \(key).push({ id = n, <kind> = state })"
    }
  }

  /// The operator that composed the child, for messages.
  var kindName: String {
    switch kind {
    case .scope: return "scope"
    case .lens: return "scope (lens)"
    case .optional: return "optional"
    case .forEach: return "forEach"
    case .presents, .presented: return "presents"
    case .stack: return "stack"
    }
  }
}
