extension Effect {
  /// A `run` effect that is not a Swift task: the host drives it by callbacks on the main actor.
  /// `start` begins it, at the turn its task would have had (after the send that returned it, in
  /// the order effects were made), as its first step (see `DrivenEffect.step`); from then on the
  /// effect does its work when its own callbacks fire (a test clock reaching a deadline, a
  /// notification), each in a `step`, sends through `effect.send`, and calls `effect.finish()`
  /// when it is done. Cancelling it calls the handler it gave `onCancel`.
  ///
  /// For hosts that run their own coroutines (the Lua host): a suspended one then costs what the
  /// host's coroutine costs, not a task with its chain of async frames — about a third of the
  /// memory, and no executor hops to wake it. Where a task is needed (inside a concatenation, or an
  /// operator that awaits an effect's body) it runs hosted in one. `place` names it in warnings;
  /// `name` (TCA 1.23's `Effect.run(name:)`) names it where a store lists its effects
  /// (`Store.runningEffects`) and in a test store's failure when it is still running.
  public static func driven(
    place: String, name: String? = nil, start: @escaping @MainActor (_ effect: DrivenEffect<Action>) -> Void
  ) -> Effect {
    Effect(
      operation: .run(
        RunOperation(
          priority: nil, dependencies: DependencyValues.currentOrNil, body: hostedInTask(start, place: place),
          driven: DrivenStart(start: start, place: place, name: name))))
  }

  /// A driven effect's body as a task's: it ends when the effect finishes; cancelling the task
  /// cancels the effect.
  static func hostedInTask(
    _ start: @escaping @MainActor (DrivenEffect<Action>) -> Void, place: String
  ) -> @MainActor @Sendable (Send<Action>) async -> Void {
    { @MainActor send in
      let core = DrivenEffectCore(dependencies: DependencyValues.currentOrNil, activity: EffectActivity.current)
      await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          core.observe(ResumingOnEnd(continuation), id: 0)
          if Task.isCancelled {
            core.cancel()
          } else {
            start(DrivenEffect(core: core, unchecked: send, place: place))
          }
        }
      } onCancel: {
        Task { @MainActor in core.cancel() }
      }
    }
  }

  static func unhandledErrorWarning(_ error: any Error, place: String) -> String {
    "An \"Effect.run\" returned from \"\(place)\" threw an unhandled error: \(error)"
  }
}

/// Resumes a driven effect's hosting task when the effect ends (see `hostedInTask`).
private final class ResumingOnEnd: DrivenEffectEndObserver {
  let continuation: CheckedContinuation<Void, Never>
  init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }
  func drivenEffectEnded(id _: Int) { continuation.resume() }
}

/// What `Effect.driven` keeps: how to start the effect, and where it was made.
@usableFromInline
struct DrivenStart<Action> {
  var start: @MainActor (DrivenEffect<Action>) -> Void
  var place: String
  /// The effect's name (TCA 1.23's `Effect.run(name:)`), shown where effects are listed; every
  /// operator that rebuilds the start passes it on (no default: one that forgets does not compile).
  var name: String?
}

/// A running driven effect (see `Effect.driven`), as its host sees it.
@MainActor
public struct DrivenEffect<Action> {
  let core: DrivenEffectCore
  /// Where its actions go, unchecked (a store's is shared by all its driven effects): `send`
  /// checks this effect's cancellation first.
  private let unchecked: Send<Action>
  let place: String
  /// Task-locals an operator binds around each step (see `binding`).
  private var bindings: (@MainActor (() -> Void) -> Void)?

  init(
    core: DrivenEffectCore, unchecked: Send<Action>, place: String, bindings: (@MainActor (() -> Void) -> Void)? = nil
  ) {
    self.core = core
    self.unchecked = unchecked
    self.place = place
    self.bindings = bindings
  }

  /// Sends an action into the store; does nothing once the effect is cancelled.
  public func send(_ action: Action) {
    if !core.isCancelled { EffectDelivery.from(core.effectID) { unchecked.deliver(action) } }
  }

  /// Reports a runtime warning to the store that runs this effect.
  public func warn(_ message: String) { unchecked.warn(message) }

  /// A view of this effect for a child whose actions `embed` turns into this effect's.
  func embedding<Child>(_ embed: @escaping (Child) -> Action) -> DrivenEffect<Child> {
    DrivenEffect<Child>(core: core, unchecked: unchecked.map(embed), place: place, bindings: bindings)
  }

  /// This effect with `bind` around each of its steps, inside the bindings it has: what an
  /// operator that binds a task-local around a task's body (the dismiss handler) does instead.
  func binding(_ bind: @escaping @MainActor (_ step: () -> Void) -> Void) -> DrivenEffect {
    var effect = self
    if let outer = bindings {
      effect.bindings = { step in outer { bind(step) } }
    } else {
      effect.bindings = bind
    }
    return effect
  }

  /// Whether the effect was cancelled (its steps then end it).
  public var isCancelled: Bool { core.isCancelled }

  /// Runs one step of the effect's work (a coroutine's resume) as its task would run it: with the
  /// dependencies the effect was made with current, and its sleeps on a `TestStoreClock` counted
  /// as its own.
  public func step(_ body: () -> Void) {
    // Outside any send's reducer context: a step that runs inside a send (a cancelled effect's
    // clean-up) reads the effect's dependencies, not the sending store's.
    let reducing = ReduceContext.installed
    ReduceContext.installed = nil
    defer { ReduceContext.installed = reducing }
    DependencyValues.$task.withValue(core.dependencies) {
      EffectActivity.$current.withValue(core.activity) {
        if let bindings { bindings(body) } else { body() }
      }
    }
  }

  /// What to do when the effect is cancelled (replacing what was given before); called at once
  /// when it already is. Not called once the effect has finished.
  public func onCancel(_ handler: @escaping @MainActor () -> Void) {
    core.setCancelHandler(.closure(handler))
  }

  /// `onCancel` for a host that keeps an object per effect: the object is told, no closure made.
  public func onCancel(telling handler: any DrivenEffectCancellable) {
    core.setCancelHandler(.object(handler))
  }

  /// Ends the effect. An error (other than a cancellation) becomes the store's warning that the
  /// effect returned from `place` threw an unhandled error. Only the first call counts.
  public func finish(throwing error: (any Error)? = nil) {
    if let error, !(error is CancellationError), !core.isCancelled, !core.hasEnded {
      warn(Effect<Action>.unhandledErrorWarning(error, place: place))
    }
    core.end()
  }
}

/// What a host keeps per driven effect anyway (a coroutine's object), told when the effect is
/// cancelled (see `DrivenEffect.onCancel(telling:)`).
@MainActor
public protocol DrivenEffectCancellable: AnyObject {
  /// Called once, on the main actor, when the effect is cancelled.
  func drivenEffectCancelled()
}

/// What a driven effect does when cancelled.
@MainActor
enum DrivenEffectCancelHandler {
  case closure(@MainActor () -> Void)
  case object(any DrivenEffectCancellable)

  func callAsFunction() {
    switch self {
    case .closure(let handler): handler()
    case .object(let object): object.drivenEffectCancelled()
    }
  }
}

/// Hears that a driven effect ended (finished or cancelled): the store's bookkeeping, or the task
/// hosting the effect. An object the hearer has anyway, not a closure per effect.
@MainActor
protocol DrivenEffectEndObserver: AnyObject {
  func drivenEffectEnded(id: Int)
}

/// The state of one driven effect, shared by its views (`DrivenEffect.embedding`).
@MainActor
final class DrivenEffectCore {
  let dependencies: DependencyValues?
  let activity: EffectActivity?
  private(set) var isCancelled = false
  private(set) var hasEnded = false
  private var cancelHandler: DrivenEffectCancelHandler?
  /// Told once, with `id`, when the effect finishes or is cancelled.
  private(set) var observer: (any DrivenEffectEndObserver)?
  private var id = 0
  /// Its id in its store (`RunningEffect.id`).
  var effectID: Int { id }

  init(dependencies: DependencyValues?, activity: EffectActivity?) {
    self.dependencies = dependencies
    self.activity = activity
  }

  func observe(_ observer: any DrivenEffectEndObserver, id: Int) {
    self.observer = observer
    self.id = id
  }

  func setCancelHandler(_ handler: DrivenEffectCancelHandler) {
    if isCancelled {
      handler()
    } else if !hasEnded {
      cancelHandler = handler
    }
  }

  func cancel() {
    guard !isCancelled, !hasEnded else { return }
    isCancelled = true
    let handler = cancelHandler
    cancelHandler = nil
    handler?()
    end()
  }

  func end() {
    guard !hasEnded else { return }
    hasEnded = true
    cancelHandler = nil
    let observer = self.observer
    self.observer = nil
    observer?.drivenEffectEnded(id: id)
  }
}
