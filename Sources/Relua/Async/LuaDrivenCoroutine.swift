import Lua

extension LuaCoroutineDriver {
  /// Runs `function(arguments...)` as a coroutine stepped by callbacks instead of awaited in a
  /// task: it runs now to its first await; an await of a callback (`LuaSuspension.callback`)
  /// resumes it from that callback, an await of async work from a task made for that one await.
  /// `completion` gets its results or its error (as `run` throws it), once, unless it is
  /// cancelled first. `context` wraps each step (a driven effect binds its dependencies there).
  ///
  /// A suspended coroutine then costs its Lua thread and what it waits on, not a Swift task.
  ///
  /// `prepare` gets the coroutine before its first step (that step can already cancel it).
  @discardableResult
  func start(
    _ function: LuaFunction, arguments: [LuaValue],
    context: @escaping @MainActor (() -> Void) -> Void = { $0() },
    prepare: (LuaDrivenCoroutine) -> Void = { _ in },
    completion: @escaping @MainActor (Result<[LuaValue], any Error>) -> Void
  ) -> LuaDrivenCoroutine {
    let coroutine = LuaDrivenCoroutine(driver: self, context: context, completion: completion)
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

/// A coroutine the driver steps by callbacks (see `LuaCoroutineDriver.start`).
@MainActor
final class LuaDrivenCoroutine {
  private let driver: LuaCoroutineDriver
  private let context: @MainActor (() -> Void) -> Void
  private var completion: (@MainActor (Result<[LuaValue], any Error>) -> Void)?
  fileprivate(set) var thread: LuaThread?
  /// Cancels what the coroutine waits on now.
  private var cancelWait: (@MainActor () -> Void)?
  /// Counts awaits: a callback of an earlier one (called twice, or late) is ignored.
  private var awaits = 0
  private var isRunning = false
  private(set) var isCancelled = false
  private var hasEnded: Bool { completion == nil }

  fileprivate init(
    driver: LuaCoroutineDriver, context: @escaping @MainActor (() -> Void) -> Void,
    completion: @escaping @MainActor (Result<[LuaValue], any Error>) -> Void
  ) {
    self.driver = driver
    self.context = context
    self.completion = completion
  }

  /// Stops the coroutine: what it waits on is cancelled and it is closed (its `<close>` variables
  /// run); the completion is not called. Cancelled while it runs (its own step sent the action
  /// that cancels it), it is closed when that step ends.
  func cancel() {
    guard !hasEnded, !isCancelled else { return }
    guard thread != nil else {
      // Not started yet: it never will be.
      isCancelled = true
      completion = nil
      return
    }
    isCancelled = true
    completion = nil
    let cancelWait = self.cancelWait
    self.cancelWait = nil
    cancelWait?()
    if !isRunning { close() }
  }

  private func close() {
    guard let thread else { return }
    self.thread = nil
    // A `<close>` handler's error has nowhere to go once the effect is cancelled.
    context { try? thread.close() }
  }

  fileprivate func end(_ result: Result<[LuaValue], any Error>) {
    guard let completion else { return }
    self.completion = nil
    thread = nil
    completion(result)
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
        let number = awaits
        guard let immediate = wait(for: suspension, number: number) else { return }
        arguments = immediate
      }
    }
  }

  /// Starts waiting for `suspension`. Returns the arguments to resume with when it completed
  /// while it was being registered (the loop in `advance` goes on: no recursion), else nil.
  private func wait(for suspension: LuaSuspension, number: Int) -> [LuaValue]? {
    switch suspension {
    case .callback(let register):
      var registering = true
      var immediate: [LuaValue]?
      // Held strongly by what it waits on: a suspended coroutine lives as long as its wait.
      // Registered in the step's context: a test clock counts the sleep as the effect's.
      var cancel: (@MainActor () -> Void)!
      context { cancel = register { [self] result in
        guard self.awaits == number, !self.hasEnded else { return }
        self.awaits += 1  // once
        self.cancelWait = nil
        if registering {
          immediate = Self.resumeArguments(result)
        } else {
          self.advance(with: Self.resumeArguments(result))
        }
      } }
      registering = false
      if immediate == nil { cancelWait = cancel }
      return immediate
    case .async(let operation):
      // Made inside `context`: the task copies the step's task-locals (the effect's dependencies).
      context {
        let task = Task { @MainActor [self] in
          let result: Result<[LuaValue], any Error>
          do { result = .success(try await operation()) } catch { result = .failure(error) }
          guard self.awaits == number, !self.hasEnded else { return }
          self.cancelWait = nil
          self.advance(with: Self.resumeArguments(result))
        }
        self.cancelWait = { task.cancel() }
      }
      return nil
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
