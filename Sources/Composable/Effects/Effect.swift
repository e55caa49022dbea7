/// Work a reducer asks the store to do after it changed the state: send actions now (`send`), run async
/// work (`run`), or manage cancellation. An effect is a small tree of operations that parents can
/// transform (map actions, prefix cancellation ids with the child's place in the tree) before the store
/// interprets it. Effects are built and interpreted on the main actor; only `run` operations leave it.
public struct Effect<Action> {
  @usableFromInline
  indirect enum Operation {
    case none
    case send(Action)
    case run(RunOperation<Action>)
    case merge([Effect])
    case concatenate([Effect])
    case cancellable(Effect, id: CancelID, cancelInFlight: Bool)
    case cancel(CancelID)
    /// Cancels every in-flight effect whose id lives at or below this place in the tree.
    case cancelSubtree(NavigationPath)
    /// A reducer reports that it could not handle its action; the store rolls the send back.
    case failure(ReducerFailure)
  }

  @usableFromInline
  var operation: Operation

  @inlinable
  init(operation: Operation) { self.operation = operation }

  /// No work. The hot path: checking for it is one enum-tag comparison.
  @inlinable
  public static var none: Effect { Effect(operation: .none) }

  /// Whether this is `.none` (nothing to run).
  @inlinable
  public var isNone: Bool {
    if case .none = operation { return true }
    return false
  }

  /// Sends `action` synchronously, within the same `store.send` that produced this effect.
  @inlinable
  public static func send(_ action: Action) -> Effect { Effect(operation: .send(action)) }

  /// Runs `operation` as a task on the store. Actions go back through `send`, a no-op once the effect is
  /// cancelled. A thrown error goes to `handler`, or becomes a store warning when there is none
  /// (cancellation errors are ignored).
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Effect {
    let isolated: @MainActor @Sendable (Send<Action>) async throws -> Void = { send in try await operation(send) }
    var isolatedHandler: (@MainActor @Sendable (any Error, Send<Action>) async -> Void)?
    if let handler {
      isolatedHandler = { error, send in await handler(error, send) }
    }
    return runOnMainActor(priority: priority, operation: isolated, catch: isolatedHandler, fileID: fileID, line: line)
  }

  /// `run` for operations bound to the main actor (hosts whose effect code lives there): the
  /// operation starts in the task's first main-actor turn, without a hop.
  public static func runOnMainActor(
    priority: TaskPriority? = nil,
    operation: @escaping @MainActor @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@MainActor @Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Effect {
    runOnMainActor(priority: priority, operation: operation, catch: handler, place: "\(fileID):\(line)")
  }

  /// `runOnMainActor` whose warnings name `place`: where the effect was returned in the host's
  /// own terms (a script's `file:line`), not a Swift file.
  public static func runOnMainActor(
    priority: TaskPriority? = nil,
    operation: @escaping @MainActor @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@MainActor @Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    place: String
  ) -> Effect {
    let dependencies = DependencyValues.currentOrNil
    return Effect(
      operation: .run(
        RunOperation(priority: priority, dependencies: dependencies) { @MainActor send in
          do {
            try await operation(send)
          } catch is CancellationError {
          } catch {
            if let handler {
              await handler(error, send)
            } else if !Task.isCancelled {
              send.warn(
                "An \"Effect.run\" returned from \"\(place)\" threw an unhandled error: \(error)"
              )
            }
          }
        }
      )
    )
  }

  /// Runs the effects at the same time.
  public static func merge(_ effects: Effect...) -> Effect { merge(effects) }

  /// Runs the effects at the same time (`.none` ones are dropped).
  public static func merge(_ effects: [Effect]) -> Effect {
    let effects = effects.filter { !$0.isNone }
    switch effects.count {
    case 0: return .none
    case 1: return effects[0]
    default: return Effect(operation: .merge(effects))
    }
  }

  /// Runs the effects one after the other: each starts when the previous one has finished.
  public static func concatenate(_ effects: Effect...) -> Effect { concatenate(effects) }

  /// Runs the effects one after the other (`.none` ones are dropped).
  public static func concatenate(_ effects: [Effect]) -> Effect {
    let effects = effects.filter { !$0.isNone }
    switch effects.count {
    case 0: return .none
    case 1: return effects[0]
    default: return Effect(operation: .concatenate(effects))
    }
  }

  /// Merges this effect with another.
  public func merge(with other: Effect) -> Effect { .merge(self, other) }

  /// Runs `other` after this effect has finished.
  public func concatenate(with other: Effect) -> Effect { .concatenate(self, other) }

  /// Fails the action: the store restores the state it had before the send and starts none of the
  /// send's effects. For reducers that can raise (the Lua layer); Swift reducers have no need for it.
  public static func failure(_ error: any Error) -> Effect {
    Effect(operation: .failure(ReducerFailure(error: error)))
  }
}

/// Why a reducer could not handle an action (see `Effect.failure`).
public struct ReducerFailure: Error, CustomStringConvertible {
  /// The error the reducer gave.
  public var error: any Error
  /// A failure for `error`.
  public init(error: any Error) { self.error = error }
  /// The error's description.
  public var description: String { String(describing: error) }
}

/// A `run` effect's task body, already wrapped with error handling. It starts on the main actor,
/// where the store lives: a host whose effect code is main-actor bound (the Lua host) runs without
/// hopping off and back. Nonisolated operations (`Effect.run`) hop to the global executor from
/// there, as in TCA. (Starting on the main actor does not make the task run before its sender goes
/// on: a `TestStore` waits for that, see `StoreRoot.allEffectsStarted`.)
@usableFromInline
struct RunOperation<Action> {
  var priority: TaskPriority?
  /// The dependencies current when the effect was made, current again while it runs: the store
  /// binds them when it makes the effect's task (the task copies them), not in an async scope of
  /// the task's own (each async frame lives in the task's memory while the effect is suspended).
  var dependencies: DependencyValues?
  var body: @MainActor @Sendable (Send<Action>) async -> Void
  /// How a driven effect starts without a task (see `Effect.driven`); `body` then hosts it in one.
  var driven: DrivenStart<Action>? = nil
}
