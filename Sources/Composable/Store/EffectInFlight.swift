/// An effect a store root runs. Not nested in the generic root: a nested type's metadata is
/// looked up at run time on each use in unspecialized code.
struct EffectInFlight {
  var runner: EffectRunner
  /// Its cancel ids; nil without any.
  var cancelIDs: EffectCancelIDs?
  /// A run effect's sleeps on a `TestStoreClock`; nil for a concatenation.
  var activity: EffectActivity?
  /// Whether the task has had its first main-actor turn.
  var started = false
  /// The name a driven effect was given (`Effect.driven(place:name:start:)`), and where it was made.
  var name: String?
  var place: String?
}

/// How an effect in flight runs: a task, or driven by its host (`Effect.driven`).
enum EffectRunner {
  case task(Task<Void, Never>)
  case driven(DrivenEffectCore)

  /// Cancels it; a driven effect ends (and leaves the store's bookkeeping) there and then.
  @MainActor
  func cancel() {
    switch self {
    case let .task(task): task.cancel()
    case let .driven(core): core.cancel()
    }
  }
}
