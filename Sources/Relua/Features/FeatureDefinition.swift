import Lua

/// A Lua feature as the host runs it: compiled once from the table `relua.feature` made.
@MainActor
public final class FeatureDefinition {
  /// The name the script gave it: `relua.feature "<name>"`.
  public let name: String
  /// The feature table (its `state`, `view` and `initial`).
  package let table: LuaTable
  /// Its own actions and their payloads.
  package let actions: [String: PayloadType]
  /// Its children, in declaration order (they run before its own reducer, in this order).
  package internal(set) var children: [FeatureChild]
  /// Fields that `binding.<field>` actions may set.
  package let bindable: [String]
  /// Its own reducer: the `reduce` field.
  let own: FeatureOwnReducer
  package let viewFunction: LuaFunction?
  /// The action a host sends when the feature's screen appears (`task = "onTask"`, TCA's `.task`);
  /// see `ScreenTasks`.
  package internal(set) var task: String?
  /// Fields of its state bound to shared keys (`shared = { items = Items }`).
  @exclusivity(unchecked) package internal(set) var sharedBindings: [SharedBinding] = []
  /// Where `relua.feature` was called (`Scripts/Features/Counter.lua:4`).
  public let definedAt: String
  /// What runs, in order: the children, the own reducer (where `relua.own` stands; by default
  /// right after the last child), more reducers (`relua.reduce`) and `relua.onChange` entries.
  /// Only scopes run in this order among the reducers: optional, forEach, presents and stack
  /// always run their child before all of them, as their operators do in TCA.
  var steps: [FeatureStep] = []

  init(
    name: String, table: LuaTable, actions: [String: PayloadType], children: [FeatureChild], bindable: [String],
    own: FeatureOwnReducer, viewFunction: LuaFunction?, definedAt: String
  ) {
    self.name = name
    self.table = table
    self.actions = actions
    self.children = children
    self.bindable = bindable
    self.own = own
    self.viewFunction = viewFunction
    self.definedAt = definedAt
    givesDependencies = (try? table.rawGet("dependencies"))?.tableValue != nil
  }

  /// The reducer of a feature written in Swift (`relua.swiftFeature`), run in place of a Lua
  /// one; nil for a Lua feature.
  var swiftReducer: AnyFeatureReducer?

  /// The paths of its action groups (`relua.group`): `delegate`, `delegate.inner`. Their actions
  /// are in `actions` by their dotted path (`delegate.startMeeting`).
  package internal(set) var actionGroups: Set<String> = []

  /// Whether it stands for a kind that is only state (`relua.stateOnly`): no actions, no reducer.
  package internal(set) var isStateOnly = false

  /// Whether the feature gives dependencies to its subtree (`dependencies = { … }`).
  let givesDependencies: Bool

  /// Whether the feature is only its own reducer (no children, no further reducers, no
  /// dependencies given): a store runs it as a leaf, without the composition's nodes.
  var isLeaf: Bool {
    children.isEmpty && steps.count == 1 && !givesDependencies && swiftReducer == nil && sharedBindings.isEmpty
  }

  /// Whether it or a feature below it holds a shared value (worked out once: a store walks only
  /// the subtrees that do, see `SharedSync.syncTree`).
  var reachesShares: Bool { !sharedBindings.isEmpty || !childrenHoldingShares.isEmpty }

  /// Whether a feature below it holds a shared value (its reducers' reads into those children
  /// may need them brought up to date first, see `SharedReadBarrier`).
  var holdsSharesBelow: Bool {
    if let memo = holdsSharesBelowMemo { return memo }
    let holds = !childrenHoldingShares.isEmpty
    holdsSharesBelowMemo = holds
    return holds
  }
  @exclusivity(unchecked) private var holdsSharesBelowMemo: Bool?

  /// Its children with a feature that holds shared values or has one below it (worked out once:
  /// each walk of a tree with shares goes through them).
  var childrenHoldingShares: [FeatureChild] {
    if let children = childrenHoldingSharesMemo { return children }
    childrenHoldingSharesMemo = []  // (a recursive feature reaching itself adds nothing)
    let found = children.filter { $0.features.contains(where: \.reachesShares) }
    childrenHoldingSharesMemo = found
    return found
  }
  @exclusivity(unchecked) private var childrenHoldingSharesMemo: [FeatureChild]?

  /// The `onChange` entries, in order (their index is their place in `OnChangeSnapshot`).
  var onChanges: [FeatureOnChange] {
    steps.compactMap { if case .onChange(let entry) = $0 { return entry } else { return nil } }
  }

  package func child(_ key: String) -> FeatureChild? { children.first { $0.key == key } }

  /// What the feature accepts, for messages: `decrement, increment, setCount(integer), counter.…`.
  public var acceptedActions: String {
    var names = actions.keys.sorted().map { name -> String in
      let payload = actions[name]!
      return payload == .none ? name : "\(name)(\(payload))"
    }
    if !bindable.isEmpty { names += bindable.sorted().map { "binding.\($0)(value)" } }
    names += children.map(\.acceptedPrefix)
    return names.isEmpty ? "no actions" : names.joined(separator: ", ")
  }
}

/// One composed child of a feature.
@MainActor
package struct FeatureChild {
  package enum Kind {
    case scope(FeatureDefinition)
    /// A derived child: `get(state)` makes its state, `set(state, child)` writes it back.
    case lens(FeatureDefinition, get: LuaFunction, set: LuaFunction)
    case optional(FeatureDefinition)
    case forEach(FeatureDefinition)
    case presents([String: Destination])
    /// One destination presented at the key, its state there as it is (`relua.presents("child",
    /// Child)`, TCA's `@Presents var child: Child.State?`; `relua.presents("alert", relua.alert
    /// { … })`, TCA's `@Presents var alert: AlertState?`): actions `child.…`, `child.dismiss`.
    case presented(Destination)
    case stack([String: Destination])
  }

  /// What a destination or stack element can be.
  package enum Destination {
    case feature(FeatureDefinition)
    /// An alert or a confirmation dialog: its state is `{ title = …, message = …, buttons =
    /// {…} }`; its actions go to the parent, and it is dismissed after any of them.
    case alert(actions: [String: PayloadType], style: AlertStyle)

    @MainActor var acceptedActions: String {
      switch self {
      case .feature(let definition): return definition.acceptedActions
      case .alert(let actions, _):
        return actions.keys.sorted().map { actions[$0]! == .none ? $0 : "\($0)(\(actions[$0]!))" }.joined(separator: ", ")
      }
    }
  }

  /// How an alert shows: TCA's `AlertState` or `ConfirmationDialogState` (they behave alike).
  package enum AlertStyle: String, Sendable {
    case alert
    case confirmationDialog = "confirmation dialog"
  }

  package let key: String
  package let kind: Kind
  public let definedAt: String
}
