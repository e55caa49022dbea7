import Composable
import Lua

extension LuaCoroutineDriver {
  /// Runs `function(arguments...)` as a coroutine stepped by callbacks instead of awaited in a
  /// task: it runs now to its first await; an await of a callback (`LuaSuspension.callback`)
  /// resumes it from that callback, an await of async work from a task made for that one await.
  /// `owner` runs each step (a driven effect binds its dependencies there) and hears of its end
  /// (results, or the error as `run` throws it), once, unless it is cancelled first.
  ///
  /// A suspended coroutine then costs its Lua thread and what it waits on, not a Swift task.
  /// `prepare` gets the coroutine before its first step (that step can already cancel it).
  @discardableResult
  func start(
    _ function: LuaFunction, arguments: [LuaValue], owner: some LuaDrivenCoroutineOwner,
    prepare: (LuaDrivenCoroutine) -> Void = { _ in }
  ) -> LuaDrivenCoroutine {
    let coroutine = LuaDrivenCoroutine(driver: self, owner: owner)
    prepare(coroutine)
    do {
      coroutine.thread = try spawn(function)
    } catch {
      coroutine.end(.failure(error))
      return coroutine
    }
    coroutine.advance(with: arguments)
    return coroutine
  }
}

/// What a coroutine the driver steps by callbacks works for (an effect, in the Lua host).
@MainActor
protocol LuaDrivenCoroutineOwner: AnyObject {
  /// Runs one step of the coroutine (with what the step needs bound).
  func step(_ body: () -> Void)
  /// The coroutine returned or raised (not called once it is cancelled).
  func coroutine(_ coroutine: LuaDrivenCoroutine, endedWith result: Result<[LuaValue], any Error>)
}

/// A coroutine the driver steps by callbacks (see `LuaCoroutineDriver.start`).
@MainActor
final class LuaDrivenCoroutine {
  private let driver: LuaCoroutineDriver
  /// Held until the coroutine ends or is cancelled.
  private var owner: (any LuaDrivenCoroutineOwner)?
  fileprivate(set) var thread: LuaThread?
  /// Cancels what the coroutine waits on now.
  private var cancelWait: (@MainActor () -> Void)?
  /// The test clock's sleep the coroutine waits on now (see `TestClockSleeper`).
  private var clockWait: (clock: TestStoreClock, sleep: TestStoreClock.Sleep)?
  /// Counts awaits: a callback of an earlier one (called twice, or late) is ignored.
  private var awaits = 0
  /// While a callback await registers: it may complete at once, with these arguments.
  private var registering = false
  private var completedWhileRegistering: [LuaValue]?
  private var isRunning = false
  private(set) var isCancelled = false
  private var hasEnded: Bool { owner == nil }

  fileprivate init(driver: LuaCoroutineDriver, owner: any LuaDrivenCoroutineOwner) {
    self.driver = driver
    self.owner = owner
  }

  private func context(_ body: () -> Void) {
    if let owner { owner.step(body) } else { body() }
  }

  /// Stops the coroutine: what it waits on is cancelled and it is closed (its `<close>` variables
  /// run); its owner hears nothing more. Cancelled while it runs (its own step sent the action
  /// that cancels it), it is closed when that step ends, as a task would stop at its next await.
  func cancel() {
    guard !hasEnded, !isCancelled else { return }
    isCancelled = true
    let cancelWait = self.cancelWait
    self.cancelWait = nil
    cancelWait?()
    if let clockWait {
      self.clockWait = nil
      clockWait.clock.cancel(clockWait.sleep)
    }
    if !isRunning { close() }
  }

  /// Closes a cancelled coroutine in its owner's context (its `<close>` handlers are its code); a
  /// handler's error has nowhere to go once the effect is cancelled.
  private func close() {
    if let thread { context { try? thread.close() } }
    thread = nil
    owner = nil
  }

  fileprivate func end(_ result: Result<[LuaValue], any Error>) {
    guard let owner else { return }
    self.owner = nil
    thread = nil
    owner.coroutine(self, endedWith: result)
  }

  /// Resumes the coroutine with `arguments` and steps it until it waits on something that has
  /// not happened yet, or ends.
  fileprivate func advance(with arguments: [LuaValue]) {
    var arguments = arguments
    while let thread, !isCancelled {
      var step: Result<LuaCoroutineDriver.Step, any Error>!
      isRunning = true
      context { step = Result { try self.driver.step(thread, with: arguments) } }
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
        guard let immediate = wait(for: suspension, number: awaits) else { return }
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
      context { cancel = register { [self] result in resume(await: number, with: result) } }
      registering = false
      let immediate = completedWhileRegistering
      completedWhileRegistering = nil
      if immediate == nil { cancelWait = cancel }
      return immediate
    case .testClock(let clock, let deadline):
      // Registered in the step's context: the sleep counts as the effect's.
      var sleep: TestStoreClock.Sleep?
      context { sleep = clock.schedule(until: deadline, waking: self) }
      guard let sleep else { return [true] }
      clockWait = (clock, sleep)
      return nil
    case .async(let operation):
      // Made inside `context`: the task copies the step's task-locals (the effect's dependencies).
      context {
        let task = Task { @MainActor [self] in
          let result: Result<[LuaValue], any Error>
          do { result = .success(try await operation()) } catch { result = .failure(error) }
          resume(await: number, with: result)
        }
        cancelWait = { task.cancel() }
      }
      return nil
    }
  }

  /// An await completed: the coroutine goes on (once, and only for the await it is in).
  private func resume(await number: Int, with result: Result<[LuaValue], any Error>) {
    guard awaits == number, !hasEnded, !isCancelled else { return }
    awaits += 1
    cancelWait = nil
    clockWait = nil
    if registering {
      completedWhileRegistering = Self.resumeArguments(result)
    } else {
      advance(with: Self.resumeArguments(result))
    }
  }

  /// What an awaitable's Lua wrapper is resumed with: `true, results...` or `false, message`.
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
    guard let clockWait, clockWait.sleep.id == id else { return }
    resume(await: awaits, with: .success([]))
  }
}
