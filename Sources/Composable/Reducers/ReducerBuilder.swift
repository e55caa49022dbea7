/// Builds a reducer from a list of reducers run in declaration order on the same state.
@resultBuilder
public enum ReducerBuilder<State, Action> {
  /// A reducer as it is.
  @inlinable
  public static func buildExpression<R: Reducer>(_ reducer: R) -> R where R.State == State, R.Action == Action {
    reducer
  }

  /// An empty block: a reducer that does nothing.
  @inlinable
  public static func buildBlock() -> EmptyReducer<State, Action> { EmptyReducer() }

  /// The first reducer of a block.
  @inlinable
  public static func buildPartialBlock<R: Reducer>(first: R) -> R where R.State == State, R.Action == Action {
    first
  }

  /// The reducers so far, then `next`.
  @inlinable
  public static func buildPartialBlock<R0: Reducer, R1: Reducer>(accumulated: R0, next: R1) -> CombinedReducer<R0, R1>
  where R0.State == State, R0.Action == Action, R1.State == State, R1.Action == Action {
    CombinedReducer(accumulated, next)
  }

  /// An `if` without `else`: the reducer when the condition held.
  @inlinable
  public static func buildOptional<R: Reducer>(_ reducer: R?) -> OptionalReducer<R>
  where R.State == State, R.Action == Action {
    OptionalReducer(reducer)
  }

  /// The `if` branch of an `if`/`else`.
  @inlinable
  public static func buildEither<First: Reducer, Second: Reducer>(first: First) -> EitherReducer<First, Second>
  where First.State == State, First.Action == Action, Second.State == State, Second.Action == Action {
    .first(first)
  }

  /// The `else` branch of an `if`/`else`.
  @inlinable
  public static func buildEither<First: Reducer, Second: Reducer>(second: Second) -> EitherReducer<First, Second>
  where First.State == State, First.Action == Action, Second.State == State, Second.Action == Action {
    .second(second)
  }

  /// A `for` loop's reducers, in order.
  @inlinable
  public static func buildArray<R: Reducer>(_ reducers: [R]) -> ReducerList<R>
  where R.State == State, R.Action == Action {
    ReducerList(reducers)
  }
}

/// Two reducers in order on one state; effects merged.
public struct CombinedReducer<R0: Reducer, R1: Reducer>: Reducer
where R0.State == R1.State, R0.Action == R1.Action {
  @usableFromInline let r0: R0
  @usableFromInline let r1: R1

  /// `r0`, then `r1`.
  @inlinable
  public init(_ r0: R0, _ r1: R1) {
    self.r0 = r0
    self.r1 = r1
  }

  /// Runs `r0`, then `r1`, on the same state; merges their effects.
  @inlinable
  public func reduce(into state: inout R0.State, action: R0.Action) -> Effect<R0.Action> {
    let e0 = r0.reduce(into: &state, action: action)
    let e1 = r1.reduce(into: &state, action: action)
    if e0.isNone { return e1 }
    if e1.isNone { return e0 }
    return .merge(e0, e1)
  }

  /// Both reducers' navigation nodes.
  public func navigationNodes(in state: R0.State) -> [NavigationNode] {
    r0.navigationNodes(in: state) + r1.navigationNodes(in: state)
  }
}

/// A reducer that may be absent (an `if` without `else` in a builder).
public struct OptionalReducer<Wrapped: Reducer>: Reducer {
  @usableFromInline let wrapped: Wrapped?
  /// `wrapped`, or no reducer.
  @inlinable public init(_ wrapped: Wrapped?) { self.wrapped = wrapped }
  /// Runs the wrapped reducer, if any.
  @inlinable
  public func reduce(into state: inout Wrapped.State, action: Wrapped.Action) -> Effect<Wrapped.Action> {
    wrapped?.reduce(into: &state, action: action) ?? .none
  }
  /// The wrapped reducer's navigation nodes, if any.
  public func navigationNodes(in state: Wrapped.State) -> [NavigationNode] {
    wrapped?.navigationNodes(in: state) ?? []
  }
}

/// One of two reducers (an `if`/`else` in a builder).
public enum EitherReducer<First: Reducer, Second: Reducer>: Reducer
where First.State == Second.State, First.Action == Second.Action {
  /// The `if` branch's reducer.
  case first(First)
  /// The `else` branch's reducer.
  case second(Second)
  /// Runs the reducer of the branch taken.
  @inlinable
  public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
    switch self {
    case let .first(r): return r.reduce(into: &state, action: action)
    case let .second(r): return r.reduce(into: &state, action: action)
    }
  }
  /// The navigation nodes of the branch taken.
  public func navigationNodes(in state: First.State) -> [NavigationNode] {
    switch self {
    case let .first(r): return r.navigationNodes(in: state)
    case let .second(r): return r.navigationNodes(in: state)
    }
  }
}

/// Reducers of one type in order (from a `for` loop in a builder, or built at run time by a host).
public struct ReducerList<Element: Reducer>: Reducer {
  /// The reducers, run in this order.
  public var reducers: [Element]
  /// The reducers, to run in this order.
  @inlinable public init(_ reducers: [Element]) { self.reducers = reducers }
  /// Runs each reducer in order on the same state; merges their effects.
  @inlinable
  public func reduce(into state: inout Element.State, action: Element.Action) -> Effect<Element.Action> {
    var effects: [Effect<Element.Action>] = []
    for reducer in reducers {
      let effect = reducer.reduce(into: &state, action: action)
      if !effect.isNone { effects.append(effect) }
    }
    return .merge(effects)
  }
  /// Every reducer's navigation nodes, in order.
  public func navigationNodes(in state: Element.State) -> [NavigationNode] {
    reducers.flatMap { $0.navigationNodes(in: state) }
  }
}

/// Groups reducers (e.g. to apply a modifier to several at once).
public struct CombineReducers<State, Action, Reducers: Reducer>: Reducer
where Reducers.State == State, Reducers.Action == Action {
  @usableFromInline let reducers: Reducers
  /// Groups the reducers `build` lists.
  @inlinable
  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) { self.reducers = build() }
  /// Runs the grouped reducers.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }
  /// The grouped reducers' navigation nodes.
  public func navigationNodes(in state: State) -> [NavigationNode] { reducers.navigationNodes(in: state) }
}
