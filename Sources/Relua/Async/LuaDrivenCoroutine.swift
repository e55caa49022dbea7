import Composable
import Lua

/// A Lua coroutine stepped by callbacks instead of awaited in a task (`start`): it runs at once to
/// its first await; an await of a callback (`LuaSuspension.callback`) resumes it from that
/// callback, a test clock's sleep (`LuaSuspension.testClock`) from the clock, which wakes this
/// object itself, and an await of async work from a task made for that one await. A suspended
/// coroutine then costs its Lua thread and this object, not a Swift task.
///
/// Subclassed by what it works for (a Lua effect's run: one object per effect): `step` runs each
/// step with what it needs bound, `ended(with:)` hears of the end (results, or the error as
/// `LuaCoroutineDriver.run` throws it), once, unless it is cancelled first.
@MainActor
class LuaDrivenCoroutine {
  let driver: LuaCoroutineDriver
  private var thread: LuaThread?
  /// What the coroutine waits on now (one field: a suspended coroutine is this object).
  private var waiting = Waiting.nothing
  /// Counts awaits: a callback of an earlier one (called twice, or late) is ignored.
  private var awaits = 0
  /// While a callback await registers: it may complete at once, with these arguments.
  private var registering = false
  private var completedWhileRegistering: [LuaValue]?
  private var isRunning = false
  private(set) var isCancelled = false
  private(set) var hasEnded = false

  init(driver: LuaCoroutineDriver) { self.driver = driver }

  /// Runs one step of the coroutine (overridden: a driven effect binds its dependencies).
  func step(_ body: () -> Void) { body() }

  /// The coroutine returned or raised (not called once it is cancelled).
  func ended(with result: Result<[LuaValue], any Error>) {}

  /// The coroutine suspended: it waits for something that has not happened yet (what a task group's
  /// children, started by it, wait for to begin, as child tasks begin when their parent suspends).
  func suspended() {}

  /// Runs `function(arguments...)` as this coroutine, to its first await or its end. Called again
  /// after the end (not after a cancel), it runs another function as the same object (a catch).
  func start(_ function: LuaFunction, arguments: [LuaValue]) {
    guard !isCancelled else { return }
    hasEnded = false
    do {
      thread = try driver.spawn(function)
    } catch {
      end(.failure(error))
      return
    }
    advance(with: arguments)
  }

  /// Stops the coroutine: what it waits on is cancelled and it is closed (its `<close>` variables
  /// run); `ended(with:)` is not called. Cancelled while it runs (its own step sent the action
  /// that cancels it), it is closed when that step ends, as a task would stop at its next await.
  func cancel() {
    guard !hasEnded, !isCancelled else { return }
    isCancelled = true
    let waiting = self.waiting
    self.waiting = .nothing
    waiting.cancel()
    if !isRunning { close() }
  }

  /// Closes a cancelled coroutine in its step's context (its `<close>` handlers are its code); a
  /// handler's error has nowhere to go once the effect is cancelled.
  private func close() {
    if let thread { step { try? thread.close() } }
    thread = nil
    hasEnded = true
  }

  private func end(_ result: Result<[LuaValue], any Error>) {
    guard !hasEnded else { return }
    hasEnded = true
    thread = nil
    ended(with: result)
  }

  /// Resumes the coroutine with `arguments` and steps it until it waits on something that has
  /// not happened yet, or ends.
  private func advance(with arguments: [LuaValue]) {
    var arguments = arguments
    while let thread, !isCancelled {
      var step: Result<LuaCoroutineDriver.Step, any Error>!
      isRunning = true
      self.step { step = Result { try self.driver.step(thread, with: arguments) } }
      isRunning = false
      if isCancelled {
        close()
        return
      }
      switch step! {
      case .failure(let error):
        end(.failure(error))
        return
      case .success(.finished(let results)):
        end(.success(results))
        return
      case .success(.suspended(let suspension)):
        awaits += 1
        guard let immediate = wait(for: suspension, number: awaits) else { return suspended() }
        arguments = immediate
      }
    }
  }

  /// Starts waiting for `suspension`. Returns the arguments to resume with when it completed
  /// while it was being registered (the loop in `advance` goes on: no recursion), else nil.
  private func wait(for suspension: LuaSuspension, number: Int) -> [LuaValue]? {
    switch suspension {
    case .callback(let register):
      registering = true
      // Registered in the step's context: a test clock counts the sleep as the effect's.
      var cancel: (@MainActor () -> Void)?
      step { cancel = register { [self] result in resume(await: number, with: result) } }
      registering = false
      let immediate = completedWhileRegistering
      completedWhileRegistering = nil
      if immediate == nil, let cancel { waiting = .callback(cancel: cancel) }
      return immediate
    case .testClock(let clock, let deadline):
      // Registered in the step's context: the sleep counts as the effect's.
      var sleep: TestStoreClock.Sleep?
      step { sleep = clock.schedule(until: deadline, waking: self) }
      guard let sleep else { return [true] }
      waiting = .clock(clock, sleep)
      return nil
    case .async(let operation):
      // Made inside `step`: the task copies the step's task-locals (the effect's dependencies).
      step {
        let task = Task { @MainActor [self] in
          let result: Result<[LuaValue], any Error>
          do { result = .success(try await operation()) } catch { result = .failure(error) }
          resume(await: number, with: result)
        }
        waiting = .task(task)
      }
      return nil
    }
  }

  /// An await completed: the coroutine goes on (once, and only for the await it is in).
  private func resume(await number: Int, with result: Result<[LuaValue], any Error>) {
    guard awaits == number, !hasEnded, !isCancelled else { return }
    awaits += 1
    waiting = .nothing
    if registering {
      completedWhileRegistering = Self.resumeArguments(result)
    } else {
      advance(with: Self.resumeArguments(result))
    }
  }

  /// What an awaitable is resumed with: `true, results...` or `false, message`.
  private static func resumeArguments(_ result: Result<[LuaValue], any Error>) -> [LuaValue] {
    switch result {
    case .success(let values): return [true] + values
    case .failure(let error): return [false, .text(LuaCoroutineDriver.message(of: error))]
    }
  }
}

extension LuaDrivenCoroutine: TestClockSleeper {
  /// The test clock reached the sleep the coroutine waits on: it goes on.
  func clockDidWake(sleep id: Int) {
    guard case .clock(_, let sleep) = waiting, sleep.id == id else { return }
    resume(await: awaits, with: .success([]))
  }
}

/// What a driven coroutine waits on, to cancel it.
@MainActor
private enum Waiting {
  case nothing
  /// A callback await: what its registration returned.
  case callback(cancel: @MainActor () -> Void)
  /// A test clock's sleep (see `TestClockSleeper`).
  case clock(TestStoreClock, TestStoreClock.Sleep)
  /// Async work, in a task of its own.
  case task(Task<Void, Never>)

  func cancel() {
    switch self {
    case .nothing: break
    case .callback(let cancel): cancel()
    case .clock(let clock, let sleep): clock.cancel(sleep)
    case .task(let task): task.cancel()
    }
  }
}
