import Foundation

/// A problem that is not a crash: an action for an absent child, an unhandled effect error, a send
/// from inside a reducer. Stores collect them (`store.warnings`).
public struct RuntimeWarning: Hashable, Sendable, CustomStringConvertible {
  /// The warning, a sentence for the user.
  public var message: String
  /// A warning saying `message`.
  public init(_ message: String) { self.message = message }
  /// The message.
  public var description: String { message }
}

/// Where reducers and effects report warnings: to the store running the current send (its
/// `ReduceContext`), else to the store running the current effect (its `EffectActivity`), else to
/// standard error.
public enum RuntimeWarnings {
  /// Reports `message` to the store running the current send or effect, else to standard error.
  /// (`isolation`, the caller's, tells whether it can be taken at once on the main actor.)
  public static func report(_ message: String, isolation: isolated (any Actor)? = #isolation) {
    let warning = RuntimeWarning(message)
    if let context = ReduceContext.current {
      context.warn(warning)
    } else if let activity = EffectActivity.current {
      activity.warn(warning, onMainActor: isolation.map { $0 === MainActor.shared } ?? false)
    } else {
      printWarning(warning)
    }
  }

  static let printWarning: @Sendable (RuntimeWarning) -> Void = { warning in
    FileHandle.standardError.write(Data("[Composable] warning: \(warning.message)\n".utf8))
  }

  /// Runs `body` with warnings going to `sink` (for reducers called outside a store, e.g. by a host).
  public static func collecting<R>(into sink: @escaping (RuntimeWarning) -> Void, _ body: () throws -> R) rethrows -> R {
    try ReduceContext(dependencies: ReduceContext.current?.dependencies ?? .current, warn: sink).installed(while: body)
  }
}

/// What a reducer can reach while a store runs it: the dependencies and the store's warning sink.
/// Installed by the store for the duration of a send, on the main thread only; one object so that
/// installing it costs one reference swap per send.
@usableFromInline
final class ReduceContext {
  var dependencies: DependencyValues
  let warn: (RuntimeWarning) -> Void

  init(dependencies: DependencyValues, warn: @escaping (RuntimeWarning) -> Void) {
    self.dependencies = dependencies
    self.warn = warn
  }

  // Written by a store around a send, on the thread running the main actor (on Linux that need not be
  // the process's main thread); read by the reducers it runs. Other threads (effects) see nil: the
  // owner thread is compared first, so they never touch the reference itself.
  // Unchecked exclusivity: every access is an instantaneous read or assignment on one thread (never
  // inout), so two accesses can never overlap; the dynamic check cost two runtime calls per send.
  // Unretained: whoever installs a context keeps it alive until it restores the previous one (a
  // store root owns its context; `DependencyValues.withValues` holds its own), so a send installs
  // and restores without retains.
  @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) static var installed: Unmanaged<ReduceContext>?
  @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) static var owner: pthread_t = 0

  @inlinable
  static var current: ReduceContext? {
    owner == pthread_self() ? installed?.takeUnretainedValue() : nil
  }

  /// Installs `context` (which the caller keeps alive until `restore`) on this thread; returns
  /// what to restore.
  @inlinable
  static func install(_ context: ReduceContext) -> Unmanaged<ReduceContext>? {
    let thread = pthread_self()
    let previous = owner == thread ? installed : nil
    owner = thread
    installed = Unmanaged.passUnretained(context)
    return previous
  }

  @inlinable
  static func restore(_ previous: Unmanaged<ReduceContext>?) {
    owner = pthread_self()
    installed = previous
  }

  /// Runs `body` with this context installed (and kept alive), then restores the previous one.
  func installed<R>(while body: () throws -> R) rethrows -> R {
    let previous = Self.install(self)
    defer {
      Self.restore(previous)
      withExtendedLifetime(self) {}
    }
    return try body()
  }
}
