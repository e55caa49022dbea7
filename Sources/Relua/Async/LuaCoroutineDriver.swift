import CReluaShim
import Lua

/// Runs Lua functions as coroutines driven from Swift async code, so Lua can await Swift work.
///
/// One driver per `LuaState` (`LuaCoroutineDriver.of(state)`), living on the main actor with the
/// state. Lua calls an *awaitable* (`state.awaitable(name:_:)`, a C function:
/// `relua_pushawaitable`); its Swift half registers the async operation under a token, and the
/// awaitable yields `(marker, token)`. `run` sees the marker, awaits the operation, and resumes
/// the coroutine with `(true, results...)` or `(false, message)`; the awaitable then returns the
/// results, or raises the message at the script line that awaited.
///
/// - Any other yield (a bare `coroutine.yield` in the driven function) is an error, "unexpected
///   coroutine.yield", naming the line: a driven coroutine belongs to its driver, and a stray
///   yield is almost always a bug. Lua code that wants generators uses its own nested coroutines,
///   which work as usual (but cannot await: the awaitable refuses to run inside them).
/// - Cancelling the Swift task that awaits `run` closes the coroutine (its `<close>` variables
///   run) and `run` throws `CancellationError` (or the error a `<close>` handler raised). The
///   operation being awaited is cancelled with the task; one that ignores cancellation is awaited
///   to its end first.
/// - Lua errors come out of `run` as `LuaError.runtime` with `file:line` and the coroutine's
///   traceback; instruction-budget and memory-limit errors name the line too. The state's
///   instruction budget applies per resume (each step between two awaits).
@MainActor
package final class LuaCoroutineDriver {
  private let spawnFunction: LuaFunction
  private let whereFunction: LuaFunction
  /// What this driver's awaitables read: the coroutine being stepped now (an awaitable called in
  /// any other one refuses to wait).
  nonisolated(unsafe) private let awaitDriver: UnsafeMutablePointer<relua_await_driver>
  private var pendingOperations: [Int64: LuaSuspension] = [:]
  private var nextToken: Int64 = 0

  /// What every awaitable yield starts with: this driver's address, so no Lua value can forge it.
  var marker: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  private init(state: LuaState) throws {
    let prelude = try state.load(LuaAsyncPrelude.source, name: LuaAsyncPrelude.chunkName)
    // Only Swift reads the marker (the C trampoline yields it), so the prelude never sees it.
    let helpers = try state.call(prelude)
    guard helpers.count == 2, let spawn = helpers[0].functionValue, let locate = helpers[1].functionValue
    else { throw LuaError.conversion("the async prelude did not return its helpers") }
    spawnFunction = spawn
    whereFunction = locate
    awaitDriver = .allocate(capacity: 1)
    awaitDriver.initialize(to: relua_await_driver(stepping: nil))
  }

  // A driver lives as long as its state (see `of`): its awaitables never outlive it.
  deinit { awaitDriver.deallocate() }

  // MARK: One driver per state

  private struct Entry {
    weak var state: LuaState?
    let driver: LuaCoroutineDriver
  }

  private static var drivers: [ObjectIdentifier: Entry] = [:]

  /// The driver of `state`, made (and its Lua helpers loaded) on first use.
  package static func of(_ state: LuaState) throws -> LuaCoroutineDriver {
    let key = ObjectIdentifier(state)
    if let entry = drivers[key], entry.state === state { return entry.driver }
    drivers = drivers.filter { $0.value.state != nil }  // forget drivers of states that are gone
    let driver = try LuaCoroutineDriver(state: state)
    drivers[key] = Entry(state: state, driver: driver)
    return driver
  }

  /// Runs `function` with the driver of its state; see `run(_:arguments:)`.
  package static func run(_ function: LuaFunction, arguments: [LuaValue] = []) async throws -> [LuaValue] {
    try await of(function.state()).run(function, arguments: arguments)
  }

  // MARK: Awaitables

  /// A Lua function that, called inside a driven coroutine, suspends it while `body` runs and
  /// returns `body`'s results (or raises its error at the caller's line). Called anywhere else it
  /// raises "'name' is asynchronous: call it inside Effect.run (or a test body)".
  package func awaitable(
    name: String, in state: LuaState, _ body: @escaping @MainActor ([LuaValue]) async throws -> [LuaValue]
  ) throws -> LuaFunction {
    try awaitable(name: name, in: state, locating: false) { arguments, _ in try await body(arguments) }
  }

  /// An awaitable that decides how to wait when it is called, before its coroutine suspends:
  /// `suspension` runs in the coroutine (its errors raise at the caller's line, as any function's)
  /// and returns what to wait for — a callback, which needs no task (see `LuaSuspension`).
  package func awaitable(
    name: String, in state: LuaState, suspending suspension: @escaping @MainActor ([LuaValue]) throws -> LuaSuspension
  ) throws -> LuaFunction {
    try awaitable(name: name, in: state, waitingAs: { stack in
      do {
        return try suspension(stack.values)
      } catch LuaError.argument(let position, let message) {
        throw Self.argumentError(of: name, position: position, message: message)
      }
    })
  }

  /// `awaitable`, whose `body` also gets the script line that called it (`file:line`), taken
  /// before the coroutine yields (a test store's notes name it).
  func awaitable(
    name: String, in state: LuaState, _ body: @escaping @MainActor ([LuaValue], _ caller: String?) async throws -> [LuaValue]
  ) throws -> LuaFunction {
    try awaitable(name: name, in: state, locating: true, body)
  }

  private func awaitable(
    name: String, in state: LuaState, locating: Bool,
    _ body: @escaping @MainActor ([LuaValue], _ caller: String?) async throws -> [LuaValue]
  ) throws -> LuaFunction {
    try awaitable(name: name, in: state, waitingAs: { stack in
      // Level 0 is the awaitable (its Swift half runs in its C frame), 1 its caller.
      let caller = locating ? stack.raw.location(ofLevel: 1) : nil
      let arguments = stack.values
      return .async {
        do {
          return try await body(arguments, caller)
        } catch LuaError.argument(let position, let message) {
          // Raised after the yield, where Lua no longer knows the function: named here.
          throw Self.argumentError(of: name, position: position, message: message)
        }
      }
    })
  }

  /// Every awaitable: its Swift half (`wait` decides, in the coroutine, what to wait for; then it
  /// files it) run by a C function that checks where it is called and yields (see
  /// `relua_pushawaitable`).
  private func awaitable(
    name: String, in state: LuaState, waitingAs wait: @escaping @MainActor (LuaStack) throws -> LuaSuspension
  ) throws -> LuaFunction {
    let start = try state.rawFunction { [unowned self] stack in
      try MainActor.assumeIsolated { try self.suspend(stack, wait(stack)) }
    }
    return try state.withRawStack { L in
      try L.reserve(7)
      try start.push(onto: L)
      defer { L.pop(2) }
      relua_pushawaitable(
        L.rawState, -1, awaitDriver,
        "'\(name)' is asynchronous: call it inside Effect.run (or a test body)",
        "'\(name)' is asynchronous and cannot wait inside a coroutine of the script's own (coroutine.create or wrap): only the effect's (or test's) own coroutine can wait; call it there, outside the nested one",
        "'\(name)' is asynchronous and cannot wait here: a Swift call between it and its coroutine cannot be suspended")
      guard case .function(let awaitable) = state.value(at: -1, in: L.rawState) else {
        throw LuaError.conversion("could not make the awaitable '\(name)'")
      }
      return awaitable
    }
  }

  /// An awaitable's bad argument, named as the script calls it (Lua's wrapper hides the name) and
  /// counted as Lua counts a method's arguments (without `self`).
  private static func argumentError(of name: String, position: Int, message: String) -> LuaError {
    let shown = name.contains(":") ? position - 1 : position
    return LuaError.runtime(
      message: shown == 0 ? "calling '\(name)' on bad self (\(message))" : "bad argument #\(shown) to '\(name)' (\(message))",
      traceback: nil)
  }

  /// The Swift half of every awaitable: files what it waits for under a token and returns
  /// `(marker, token)`, which the awaitable yields to the driver.
  private func suspend(_ stack: LuaStack, _ suspension: LuaSuspension) throws -> LuaReturn {
    nextToken += 1
    pendingOperations[nextToken] = suspension
    try stack.push(.lightUserdata(marker))
    stack.push(nextToken)
    return .values(2)
  }

  /// What a yield waits for, if the yield came from an awaitable of this driver.
  private func takeSuspension(from yielded: [LuaValue]) -> LuaSuspension? {
    guard yielded.count == 2, case .lightUserdata(let pointer) = yielded[0], pointer == marker,
      case .integer(let token) = yielded[1]
    else { return nil }
    return pendingOperations.removeValue(forKey: token)
  }

  // MARK: Driving

  /// Runs `function(arguments...)` as a coroutine until it returns; returns its results.
  package func run(_ function: LuaFunction, arguments: [LuaValue] = []) async throws -> [LuaValue] {
    try await run(function, arguments: arguments, onFailure: { _, _ in })
  }

  /// `run`, telling `onFailure` where the coroutine stood when it failed (`file:line` and Lua
  /// traceback), for errors that do not carry it themselves (a Swift error thrown by a function
  /// the script called).
  package func run(
    _ function: LuaFunction, arguments: [LuaValue], onFailure: (_ location: String?, _ traceback: String?) -> Void
  ) async throws -> [LuaValue] {
    let thread = try spawn(function)
    var resumeArguments = arguments
    while true {
      if Task.isCancelled { try stop(thread) }
      switch try step(thread, with: resumeArguments, onFailure: onFailure) {
      case .finished(let results):
        return results
      case .suspended(let suspension):
        do {
          resumeArguments = [true] + (try await wait(for: suspension))
        } catch {
          if Task.isCancelled { try stop(thread) }
          resumeArguments = [false, .text(Self.message(of: error))]
        }
      }
    }
  }

  /// A new coroutine of this driver running `function`.
  func spawn(_ function: LuaFunction) throws -> LuaThread {
    guard let thread = try spawnFunction.call(.function(function)).first?.threadValue else {
      throw LuaError.conversion("the async prelude did not make a coroutine")
    }
    return thread
  }

  enum Step {
    case finished([LuaValue])
    case suspended(LuaSuspension)
  }

  /// Resumes `thread` with `arguments` up to its next await or its end. Errors carry the script
  /// line where the coroutine stood; a yield that is not an await is one.
  func step(
    _ thread: LuaThread, with arguments: [LuaValue], onFailure: (_ location: String?, _ traceback: String?) -> Void = { _, _ in }
  ) throws -> Step {
    let outcome: LuaResumeResult
    let outer = awaitDriver.pointee.stepping
    awaitDriver.pointee.stepping = try thread.rawPointer()
    defer { awaitDriver.pointee.stepping = outer }
    do {
      outcome = try thread.resume(arguments: arguments)
    } catch LuaError.memory(let message) {
      let (location, traceback) = locate(thread)
      onFailure(location, traceback)
      throw LuaError.memory(message: location.map { "\($0): \(message)" } ?? message)
    } catch {
      let (location, traceback) = locate(thread)
      onFailure(location, traceback)
      throw error
    }
    switch outcome {
    case .finished(let results):
      return .finished(results)
    case .yielded(let yielded):
      guard let suspension = takeSuspension(from: yielded) else {
        let (location, _) = locate(thread)
        try? thread.close()
        throw LuaError.runtime(
          message: (location.map { "\($0): " } ?? "")
            + "unexpected coroutine.yield: only asynchronous functions may suspend a coroutine run by the driver",
          traceback: nil)
      }
      return .suspended(suspension)
    }
  }

  /// Waits in this task for what an await asked for.
  private func wait(for suspension: LuaSuspension) async throws -> [LuaValue] {
    switch suspension {
    case .async(let operation):
      return try await operation()
    case .testClock:
      return try await wait(for: suspension.asCallback)
    case .callback(let register):
      let waiting = CallbackWait()
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<UncheckedSendable<[LuaValue]>, any Error>) in
          waiting.continuation = continuation
          if Task.isCancelled {
            waiting.finish(.failure(CancellationError()))
          } else {
            let cancel = register { waiting.finish($0) }
            if waiting.continuation != nil { waiting.cancel = cancel }
          }
        }
      } onCancel: {
        Task { @MainActor in
          waiting.cancel?()
          waiting.finish(.failure(CancellationError()))
        }
      }.value
    }
  }

  /// Closes a cancelled coroutine (running its `<close>` variables) and ends `run`.
  private func stop(_ thread: LuaThread) throws -> Never {
    try thread.close()
    throw CancellationError()
  }

  /// Where a suspended or failed coroutine stands (Lua leaves a failed coroutine's stack in
  /// place), lifting the memory limit for the few bytes that costs after a memory error.
  private func locate(_ thread: LuaThread) -> (location: String?, traceback: String?) {
    guard let state = try? thread.state() else { return (nil, nil) }
    guard let found = try? state.withoutMemoryLimit({ try whereFunction.call(.thread(thread)) }) else { return (nil, nil) }
    return (found.first?.stringValue, found.count > 1 ? found[1].stringValue : nil)
  }

  static func message(of error: any Error) -> String {
    switch error {
    case let error as LuaError: return error.message
    default: return String(describing: error)
    }
  }
}

/// A callback await inside a task: the continuation is resumed once, by the callback or the
/// task's cancellation, whichever comes first.
@MainActor
private final class CallbackWait {
  var continuation: CheckedContinuation<UncheckedSendable<[LuaValue]>, any Error>?
  var cancel: (@MainActor () -> Void)?

  func finish(_ result: Result<[LuaValue], any Error>) {
    guard let continuation else { return }
    self.continuation = nil
    cancel = nil
    continuation.resume(with: result.map(UncheckedSendable.init))
  }
}
