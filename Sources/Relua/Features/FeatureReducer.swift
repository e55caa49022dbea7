import Composable

/// A reducer over `Value` state and `FeatureAction`s with its concrete type erased: the tree of a
/// Lua feature is assembled at run time, so each node holds its children this way.
struct AnyFeatureReducer: Reducer {
  typealias State = Value
  typealias Action = FeatureAction
  let reduceBody: (inout Value, FeatureAction) -> Effect<FeatureAction>
  let nodesBody: (Value) -> [NavigationNode]

  init<R: Reducer>(_ reducer: R) where R.State == Value, R.Action == FeatureAction {
    reduceBody = reducer.reduce(into:action:)
    nodesBody = reducer.navigationNodes(in:)
  }

  func reduce(into state: inout Value, action: FeatureAction) -> Effect<FeatureAction> { reduceBody(&state, action) }
  func navigationNodes(in state: Value) -> [NavigationNode] { nodesBody(state) }
}

/// Runs reducers one after the other on the same state; their effects merge.
struct SequenceReducer: Reducer {
  typealias State = Value
  typealias Action = FeatureAction
  let reducers: [AnyFeatureReducer]

  func reduce(into state: inout Value, action: FeatureAction) -> Effect<FeatureAction> {
    var effects: [Effect<FeatureAction>] = []
    for reducer in reducers {
      let effect = reducer.reduce(into: &state, action: action)
      if !effect.isNone { effects.append(effect) }
    }
    return effects.isEmpty ? .none : .merge(effects)
  }

  func navigationNodes(in state: Value) -> [NavigationNode] { reducers.flatMap { $0.navigationNodes(in: state) } }
}

/// Builds the engine's reducer tree for a feature: its own Lua reducer at the leaf, wrapped by one
/// Composable operator per composed child. Children run before the feature's own reducer, in the
/// order they are declared (the first declared runs first).
@MainActor
enum FeatureReducerBuilder {
  /// Features whose reducer is being built: a recursive feature's reference to itself gets a
  /// reducer that finds the built one when it runs (the tree of a recursive feature is finite only
  /// in its state, so it cannot be built out eagerly).
  private static var building: [ObjectIdentifier: RecursiveReducer.Box] = [:]

  static func reducer(for feature: FeatureDefinition, host: ReluaHost) -> AnyFeatureReducer {
    let key = ObjectIdentifier(feature)
    if let box = building[key] { return AnyFeatureReducer(RecursiveReducer(box: box)) }
    let box = RecursiveReducer.Box()
    building[key] = box
    defer { building[key] = nil }
    let reducer = buildReducer(for: feature, host: host)
    box.reducer = reducer
    return reducer
  }

  private static func buildReducer(for feature: FeatureDefinition, host: ReluaHost) -> AnyFeatureReducer {
    // Scopes and the feature's own reducers run in sequence, in the order of `steps`.
    let baseline = OnChangeBaseline()
    var sequence: [AnyFeatureReducer] = []
    // The feature's own Lua logic; with shares, the shares' wrapper calls the leaf itself (on the
    // main actor), so it is not wrapped again below.
    func luaLogic(_ leaf: LuaLeafReducer) -> AnyFeatureReducer {
      feature.sharedBindings.isEmpty ? AnyFeatureReducer(leaf) : AnyFeatureReducer(SharedFieldsReducer(leaf: leaf, feature: feature, host: host))
    }
    for step in feature.steps {
      switch step {
      case .child(let index):
        if let scope = scope(feature.children[index], host: host) { sequence.append(scope) }
      case .own:
        if let swift = feature.swiftReducer {
          sequence.append(swift)
        } else {
          sequence.append(luaLogic(LuaLeafReducer(feature: feature, host: host)))
          continue
        }
      case .reduce(let own):
        sequence.append(luaLogic(LuaLeafReducer(feature: feature, host: host, reducer: own)))
        continue
      case .onChange(let entry):
        sequence.append(AnyFeatureReducer(OnChangeReducer(entry: entry, feature: feature, host: host, baseline: baseline)))
      }
      if case .child = step { continue }
      if !feature.sharedBindings.isEmpty {
        sequence[sequence.count - 1] = AnyFeatureReducer(SharedFieldsReducer(base: sequence[sequence.count - 1], feature: feature, host: host))
      }
    }
    var reducer = sequence.count == 1 ? sequence[0] : AnyFeatureReducer(SequenceReducer(reducers: sequence))
    // The other operators wrap it: their child runs first; the first declared is outermost.
    for child in feature.children.reversed() {
      reducer = wrap(reducer, in: child, of: feature, host: host) ?? reducer
    }
    let onChanges = feature.onChanges
    if !onChanges.isEmpty {
      reducer = AnyFeatureReducer(OnChangeSnapshot(base: reducer, entries: onChanges, feature: feature, host: host, baseline: baseline))
    }
    return givingDependencies(reducer, of: feature, host: host)
  }

  /// The feature's `dependencies = { name = … }` for it and its subtree (TCA's
  /// `.dependency(\.x, …)`): given as a test gives them, over what the store has. A bad entry
  /// fails each action of the feature with the reason (the state is unchanged).
  private static func givingDependencies(_ reducer: AnyFeatureReducer, of feature: FeatureDefinition, host: ReluaHost) -> AnyFeatureReducer {
    guard case .table(let table)? = try? feature.table.rawGet("dependencies") else { return reducer }
    var givens: [(String, NamedDependencies.Given)] = []
    do {
      for (key, value) in try table.pairs() {
        guard let name = key.stringValue, let declaration = host.named.declaration(name) else {
          throw ReluaError.usage("feature '\(feature.name)': dependencies: '\(key.stringValue ?? "?")' is not a declared or registered dependency (built-in ones are given to stores)")
        }
        givens.append((name, try NamedDependencies.given(value, for: declaration)))
      }
    } catch {
      let failure = error
      return AnyFeatureReducer(Reduce<Value, FeatureAction> { _, action in
        nonisolated(unsafe) var effect = Effect<FeatureAction>.none
        MainActor.assumeIsolated { effect = host.reducerFailure(failure, feature: feature, action: action) }
        return effect
      })
    }
    return AnyFeatureReducer(reducer.transformDependencies { values in
      for (name, given) in givens { values[named: name] = given }
    })
  }

  /// A scope (by key or through a lens), or nil for the wrapping operators.
  private static func scope(_ child: FeatureChild, host: ReluaHost) -> AnyFeatureReducer? {
    let key = child.key
    guard case .feature(let feature)? = child.onlyDestination else { return nil }
    switch child.storage {
    case .field:
      return AnyFeatureReducer(Scope<Value, FeatureAction, AnyFeatureReducer>(
        state: fieldLens(key), action: childLens(key), place: child.definedAt
      ) { reducer(for: feature, host: host) })
    case .derived:
      let (get, set) = child.lensFunctions!
      let lens = StateLens<Value, Value>(
        get: { state in host.lensGet(get, state, key: key) },
        set: { state, childState in host.lensSet(set, &state, childState, key: key) },
        identity: "lens:\(key)")
      return AnyFeatureReducer(Scope<Value, FeatureAction, AnyFeatureReducer>(
        state: lens, action: childLens(key), place: child.definedAt
      ) { reducer(for: feature, host: host) })
    case .optionalField, .elements:
      return nil
    }
  }

  private static func wrap(
    _ parent: AnyFeatureReducer, in child: FeatureChild, of owner: FeatureDefinition, host: ReluaHost
  ) -> AnyFeatureReducer? {
    let key = child.key
    // Where warnings say the operator is: the compose entry's line and what it is
    // (`Scripts/Features/X.lua:12 (Parent.rows)`).
    let place = "\(child.definedAt) (\(owner.name).\(key))"
    let kinds = child.destinationsByKind
    // The operator of each shape (a presented destination and an optional differ in dismissing).
    switch (child.storage, child.selectsKind, child.onlyDestination) {
    case (.field, _, _), (.derived, _, _):
      return nil
    case (.optionalField, false, .feature(let feature)?) where !child.isNavigation:
      return AnyFeatureReducer(
        parent.ifLet(
          StateLens(get: { $0[key: key].asOptional }, modify: { $1(&$0[key: key].asOptional) }, identity: key), action: childLens(key),
          // A child with an `id` field is that id: replacing it with another id is a new child.
          identity: { AnyHashableSendable($0[key: "id"]) }, fileID: place, line: 0
        ) { reducer(for: feature, host: host) })
    case (.elements, false, .feature(let feature)?):
      return AnyFeatureReducer(
        parent.forEach(
          StateLens(get: { $0[key: key].asIdentified }, modify: { $1(&$0[key: key].asIdentified) }, identity: key), action: elementLens(key), fileID: place, line: 0
        ) {
          reducer(for: feature, host: host)
        })
    case (.optionalField, true, _):
      let destination = DestinationReducer(kinds: kinds, host: host)
      let node = AnyFeatureReducer(
        parent.presentation(
          StateLens(get: { $0[key: key].asPresentation }, modify: { $1(&$0[key: key].asPresentation) }, identity: key), action: presentationLens(key),
          identity: { DestinationReducer.identity(of: $0, kinds: kinds) },
          isEphemeral: { DestinationReducer.isAlert($0, kinds: kinds) },
          otherThanPresented: { state, action in
            let presented = DestinationReducer.kind(of: state)
            return action.head == presented ? nil : presented ?? "nothing"
          }, fileID: place, line: 0
        ) { destination })
      return AnyFeatureReducer(NavigationWriteLog(base: node, key: key, host: host) { rest, field in
        (rest.steps.count == 1 && rest.head == "dismiss") || DestinationReducer.isAlert(field, kinds: kinds)
      })
    case (.optionalField, false, let destination?):
      let isAlert: Bool
      let presented: AnyFeatureReducer
      switch destination {
      case .feature(let feature):
        isAlert = false
        presented = reducer(for: feature, host: host)
      case .alert:
        // Its button actions go to the parent; it has no reducer of its own.
        isAlert = true
        presented = AnyFeatureReducer(EmptyReducer<Value, FeatureAction>())
      }
      let node = AnyFeatureReducer(
        parent.presentation(
          StateLens(get: { $0[key: key].asPresentation }, modify: { $1(&$0[key: key].asPresentation) }, identity: key),
          action: presentationLens(key),
          // As an optional child: one with an `id` field is that id; an alert is a new one each
          // time one is presented.
          identity: { isAlert ? DestinationReducer.alertIdentity(of: $0) : AnyHashableSendable($0[key: "id"]) },
          isEphemeral: { _ in isAlert },
          fileID: place, line: 0
        ) { presented })
      return AnyFeatureReducer(NavigationWriteLog(base: node, key: key, host: host) { rest, _ in
        isAlert || (rest.steps.count == 1 && rest.head == "dismiss")
      })
    case (.elements, true, _):
      let element = DestinationReducer(kinds: kinds, host: host)
      let node = AnyFeatureReducer(parent.stack(
          StateLens(get: { $0[key: key].asStack }, modify: { $1(&$0[key: key].asStack) }, identity: key), action: stackLens(key), fileID: place, line: 0
        ) { element })
      let logged = AnyFeatureReducer(NavigationWriteLog(base: node, key: key, host: host) { rest, _ in
        rest.steps.count == 1 && (rest.head == "popFrom" || rest.head == "push")
      })
      return AnyFeatureReducer(StackPush(base: logged, key: key, kinds: kinds, owner: owner.name, place: child.definedAt))
    default:
      // (A collection of alerts, or of nothing: no kind composes one.)
      return nil
    }
  }

  /// A record field, modified in place.
  static func fieldLens(_ key: String) -> StateLens<Value, Value> {
    StateLens(get: { $0[key: key] }, modify: { $1(&$0[key: key]) }, identity: key)
  }

  // MARK: Action lenses

  static func childLens(_ key: String) -> CaseLens<FeatureAction, FeatureAction> {
    CaseLens(
      embed: { $0.prefixed(.name(key)) },
      extract: { $0.head == key ? $0.tail : nil })
  }

  static func elementLens(_ key: String) -> CaseLens<FeatureAction, IdentifiedAction<Value, FeatureAction>> {
    CaseLens(
      embed: { identified in
        switch identified {
        case .element(let id, let action): return action.prefixed(.name(key), .id(id))
        }
      },
      extract: { action in
        guard action.head == key, case .id(let id)? = action.steps.dropFirst().first else { return nil }
        return .element(id: id, action: FeatureAction(steps: action.steps.dropFirst(2), payload: action.payload))
      })
  }

  static func presentationLens(_ key: String) -> CaseLens<FeatureAction, PresentationAction<FeatureAction>> {
    CaseLens(
      embed: { presentation in
        switch presentation {
        case .presented(let action): return action.prefixed(.name(key))
        case .dismiss: return FeatureAction(steps: [.name(key), .name("dismiss")])
        }
      },
      extract: { action in
        guard action.head == key else { return nil }
        let rest = action.tail
        if rest.steps.count == 1, rest.head == "dismiss" { return .dismiss }
        return .presented(rest)
      })
  }

  static func stackLens(_ key: String) -> CaseLens<FeatureAction, StackAction<Value, FeatureAction>> {
    CaseLens(
      embed: { stackAction in
        switch stackAction {
        case .element(let id, let action): return action.prefixed(.name(key), .id(.integer(Int64(id.rawValue))))
        case .popFrom(let id):
          return FeatureAction(steps: [.name(key), .name("popFrom")], payload: .integer(Int64(id.rawValue)))
        case .push(let id, let state):
          var element = state
          element[key: "id"] = .integer(Int64(id.rawValue))
          return FeatureAction(steps: [.name(key), .name("push")], payload: element)
        }
      },
      extract: { action in
        guard action.head == key else { return nil }
        let rest = action.tail
        if rest.head == "popFrom", rest.steps.count == 1, case .integer(let id) = action.payload {
          return .popFrom(id: StackElementID(Int(id)))
        }
        // (`StackPush` made the payload `{ id = n, <kind> = state }` before this reads it.)
        if rest.head == "push", rest.steps.count == 1, case .integer(let id) = action.payload[key: "id"] {
          return .push(id: StackElementID(Int(id)), state: action.payload)
        }
        guard case .id(.integer(let id))? = rest.steps.first else { return nil }
        return .element(id: StackElementID(Int(id)), action: rest.tail)
      })
  }
}

/// A recursive feature's reference to itself: the reducer built for it, found when it runs.
struct RecursiveReducer: Reducer {
  typealias State = Value
  typealias Action = FeatureAction

  final class Box: @unchecked Sendable {
    var reducer: AnyFeatureReducer?
  }

  let box: Box

  func reduce(into state: inout Value, action: FeatureAction) -> Effect<FeatureAction> {
    box.reducer!.reduce(into: &state, action: action)
  }

  func navigationNodes(in state: Value) -> [NavigationNode] { box.reducer!.navigationNodes(in: state) }
}
