/// A feature's logic: evolves `State` for an `Action` and returns the `Effect` to run next.
///
/// Implement either `reduce(into:action:)` or a `body` built from other reducers (like TCA's `body`).
public protocol Reducer<State, Action> {
  /// The feature's state.
  associatedtype State
  /// The feature's actions.
  associatedtype Action
  /// The reducer `body` is built of (`Never` for a reducer implementing `reduce(into:action:)`).
  associatedtype Body

  /// Changes `state` for `action` and returns the effect to run next (`.none` for nothing).
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducers this feature is built of, run in order (instead of `reduce(into:action:)`).
  @ReducerBuilder<State, Action>
  var body: Body { get }

  /// The destinations and stack elements this reducer presents in `state` (UI = F(state)).
  func navigationNodes(in state: State) -> [NavigationNode]
}

extension Reducer where Body == Never {
  /// A reducer that implements `reduce(into:action:)` has no body (reading it is a fatal error).
  public var body: Body {
    fatalError("'\(Self.self)' has no body: it implements reduce(into:action:).")
  }
}

extension Reducer {
  /// None by default.
  public func navigationNodes(in state: State) -> [NavigationNode] { [] }

  /// The navigation tree of `state`: a root node holding what is presented right now.
  public func navigationTree(_ state: State, name: String = "root") -> NavigationNode {
    NavigationNode(kind: .root, id: NavigationID(scope: "root", id: name), state: state, children: navigationNodes(in: state))
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs `body`.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body.reduce(into: &state, action: action)
  }

  /// `body`'s navigation nodes.
  public func navigationNodes(in state: State) -> [NavigationNode] {
    body.navigationNodes(in: state)
  }
}

/// A reducer whose actions always run on a feature's own state (`Reduce`, `Scope`, …).
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>
