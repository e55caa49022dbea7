import Lua
import XCTest

@testable import Composable
@testable import Relua

@MainActor
final class LuaCoroutineDriverTests: XCTestCase {
  struct Boom: Error, CustomStringConvertible {
    var description: String { "the server is on fire" }
  }

  /// A state with `sleep(seconds)` on `clock` and `add(a, b)` (an awaitable answering at once).
  private func makeState<C: Clock<Duration>>(
    clock: C, options: LuaOptions = LuaOptions()
  ) throws -> LuaState {
    let state = try LuaState(options: options)
    try state.setGlobal("sleep", .function(state.awaitable(name: "clock.sleep") { arguments in
      try await clock.sleep(for: .milliseconds(Int(arguments.first?.integerValue ?? 0)))
      return []
    }))
    try state.setGlobal("add", .function(state.awaitable(name: "add") { arguments in
      [.integer((arguments[0].integerValue ?? 0) + (arguments[1].integerValue ?? 0))]
    }))
    try state.setGlobal("fail", .function(state.awaitable(name: "fail") { _ in throw Boom() }))
    return state
  }

  private func function(_ state: LuaState, _ source: String) throws -> LuaFunction {
    try XCTUnwrap(state.execute(source, name: "@driven.lua").first?.functionValue)
  }

  /// Runs `body` in a task whose sleeps on a `TestStoreClock` are counted as a test store counts an
  /// effect's (`EffectActivity`); `sleeps` yields once per sleep registered, so the test knows
  /// exactly when the coroutine is asleep instead of yielding and hoping it got there. The task
  /// returns the coroutine's first result as an integer.
  private func drive(_ body: LuaFunction) -> (task: Task<Int64?, any Error>, sleeps: AsyncStream<Void>) {
    let (sleeps, fellAsleep) = AsyncStream<Void>.makeStream()
    let activity = EffectActivity(awake: AwakeEffects { _ in fellAsleep.yield() })
    let task = Task {
      try await EffectActivity.$current.withValue(activity) {
        try await LuaCoroutineDriver.run(body).first?.integerValue
      }
    }
    return (task, sleeps)
  }

  func testRunsAPlainFunctionAndReturnsItsResults() async throws {
    let state = try makeState(clock: ContinuousClock())
    let body = try function(state, "return function(a, b) return a * b, 'done' end")
    let results = try await LuaCoroutineDriver.run(body, arguments: [6, 7])
    XCTAssertEqual(results, [42, "done"])
  }

  func testSleepsOnAContinuousClock() async throws {
    let state = try makeState(clock: ContinuousClock())
    let body = try function(state, """
      return function()
        local steps = {}
        for i = 1, 3 do sleep(2) steps[#steps + 1] = i end
        return table.concat(steps, ",")
      end
      """)
    let start = ContinuousClock.now
    let results = try await LuaCoroutineDriver.run(body)
    XCTAssertEqual(results, ["1,2,3"])
    XCTAssertGreaterThanOrEqual(ContinuousClock.now - start, .milliseconds(6))
  }

  func testTestClockControlsWhenTheCoroutineContinues() async throws {
    let clock = TestStoreClock()
    let state = try makeState(clock: clock)
    try state.execute("log = {}")
    let body = try function(state, """
      return function()
        table.insert(log, 'start'); sleep(1000)
        table.insert(log, 'one second'); sleep(1000)
        table.insert(log, 'two seconds')
        return #log
      end
      """)
    let (task, sleeps) = drive(body)
    var asleep = sleeps.makeAsyncIterator()
    _ = await asleep.next()
    XCTAssertEqual(try state.execute("return table.concat(log, '|')"), ["start"])
    clock.move(to: .init(offset: .milliseconds(999)))  // wakes nothing: the coroutine stays asleep
    XCTAssertEqual(try state.execute("return table.concat(log, '|')"), ["start"])
    clock.move(to: .init(offset: .seconds(1)))
    _ = await asleep.next()
    XCTAssertEqual(try state.execute("return table.concat(log, '|')"), ["start|one second"])
    clock.move(to: .init(offset: .seconds(2)))
    let count = try await task.value
    XCTAssertEqual(count, 3)
  }

  func testNestedAwaitsInLoops() async throws {
    let state = try makeState(clock: ContinuousClock())
    let body = try function(state, """
      local function sum(n)
        local total = 0
        for i = 1, n do total = add(total, i) end
        return total
      end
      return function()
        local totals = {}
        for n = 1, 20 do
          local ok, value = pcall(sum, n)  -- pcall is yieldable in Lua 5.4: awaiting inside it works
          assert(ok, value)
          totals[#totals + 1] = value
        end
        return totals[20], #totals
      end
      """)
    let results = try await LuaCoroutineDriver.run(body)
    XCTAssertEqual(results, [210, 20])
  }

  func testSwiftErrorIsRaisedAtTheScriptLineThatAwaited() async throws {
    let state = try makeState(clock: ContinuousClock())
    let caught = try function(state, """
      return function()
        local ok, message = pcall(function()
          fail()
        end)
        return ok, message
      end
      """)
    let results = try await LuaCoroutineDriver.run(caught)
    XCTAssertEqual(results, [false, "driven.lua:3: the server is on fire"])

    let uncaught = try function(state, """
      return function()
        fail()
      end
      """)
    do {
      _ = try await LuaCoroutineDriver.run(uncaught)
      XCTFail("expected an error")
    } catch LuaError.runtime(let message, let traceback) {
      XCTAssertEqual(message, "driven.lua:2: the server is on fire")
      XCTAssertTrue(traceback?.contains("driven.lua:2:") ?? false, traceback ?? "no traceback")
    }
  }

  func testLuaErrorAfterAnAwaitHasFileLineAndTraceback() async throws {
    let state = try makeState(clock: ContinuousClock())
    let body = try function(state, """
      local function explode()
        error("kaboom")
      end
      return function()
        sleep(1)
        explode()
      end
      """)
    do {
      _ = try await LuaCoroutineDriver.run(body)
      XCTFail("expected an error")
    } catch LuaError.runtime(let message, let traceback) {
      XCTAssertEqual(message, "driven.lua:2: kaboom")
      let traceback = try XCTUnwrap(traceback)
      XCTAssertTrue(traceback.contains("stack traceback:"), traceback)
      XCTAssertTrue(traceback.contains("driven.lua:6:"), traceback)
    }
  }

  func testCancellationClosesTheCoroutineAndRunsItsCloseVariables() async throws {
    let clock = TestStoreClock()
    let state = try makeState(clock: clock)
    try state.execute("closed = {} reached = false")
    let body = try function(state, """
      local function closer(name)
        return setmetatable({}, { __close = function() table.insert(closed, name) end })
      end
      return function()
        local outer <close> = closer('outer')
        do
          local inner <close> = closer('inner')
          sleep(60000)
        end
        reached = true
      end
      """)
    let (task, sleeps) = drive(body)
    var asleep = sleeps.makeAsyncIterator()
    _ = await asleep.next()
    XCTAssertEqual(try state.execute("return #closed"), [0])
    task.cancel()
    do {
      _ = try await task.value
      XCTFail("expected cancellation")
    } catch is CancellationError {}
    XCTAssertEqual(try state.execute("return table.concat(closed, ','), reached"), ["inner,outer", false])
  }

  func testAwaitableOutsideADrivenCoroutineIsAClearError() async throws {
    let state = try makeState(clock: ContinuousClock())
    // Top-level script code.
    do {
      try state.execute("local x = 1\nsleep(10)", name: "@top.lua")
      XCTFail("expected an error")
    } catch LuaError.runtime(let message, _) {
      XCTAssertEqual(message, "top.lua:2: 'clock.sleep' is asynchronous: call it inside Effect.run (or a test body)")
    }
    // A plain Lua coroutine, even inside a driven one: its yields would not reach the driver.
    let nested = try function(state, """
      return function()
        local co = coroutine.wrap(function() sleep(1) end)
        return pcall(co)
      end
      """)
    let results = try await LuaCoroutineDriver.run(nested)
    XCTAssertEqual(results.first, false)
    XCTAssertTrue(results.last?.stringValue?.contains("'clock.sleep' is asynchronous") ?? false, "\(results)")
  }

  func testAwaitableBehindASwiftFrameCannotWait() async throws {
    let state = try makeState(clock: ContinuousClock())
    try state.register("callSwiftly") { stack in try stack.function(at: 1).call() }
    let body = try function(state, """
      return function()
        return pcall(callSwiftly, function() sleep(1) end)
      end
      """)
    let results = try await LuaCoroutineDriver.run(body)
    XCTAssertEqual(results.first, false)
    XCTAssertTrue(results.last?.stringValue?.contains("cannot wait here") ?? false, "\(results)")
  }

  func testAPlainYieldIsAnUnexpectedYieldError() async throws {
    let state = try makeState(clock: ContinuousClock())
    try state.execute("closed = false")
    let body = try function(state, """
      return function()
        local guard <close> = setmetatable({}, { __close = function() closed = true end })
        coroutine.yield(1)
      end
      """)
    do {
      _ = try await LuaCoroutineDriver.run(body)
      XCTFail("expected an error")
    } catch LuaError.runtime(let message, _) {
      XCTAssertTrue(message.hasPrefix("driven.lua:3: unexpected coroutine.yield"), message)
    }
    XCTAssertEqual(try state.global("closed"), true)
  }

  func testManyConcurrentCoroutinesOnOneState() async throws {
    let state = try makeState(clock: ContinuousClock())
    let body = try function(state, """
      return function(id)
        local total = 0
        for step = 1, 5 do
          sleep((id * 7 + step) % 3)
          total = add(total, id)
        end
        return total
      end
      """)
    let tasks = (1...40).map { id in
      Task { try await LuaCoroutineDriver.run(body, arguments: [.integer(Int64(id))]).first?.integerValue }
    }
    var totals: [Int64?] = []
    for task in tasks { totals.append(try await task.value) }
    XCTAssertEqual(totals, (1...40).map { Int64($0 * 5) })
  }

  func testInstructionBudgetStopsARunawayCoroutineAtItsLine() async throws {
    let state = try makeState(clock: ContinuousClock(), options: LuaOptions(instructionLimit: 100_000))
    let body = try function(state, """
      return function()
        sleep(1)
        while true do pcall(function() while true do end end) end
      end
      """)
    do {
      _ = try await LuaCoroutineDriver.run(body)
      XCTFail("expected an error")
    } catch LuaError.instructionLimit(let location) {
      XCTAssertEqual(location, "driven.lua:3")
    }
  }

  func testMemoryLimitStopsAMemoryBombAndNamesTheLine() async throws {
    let state = try makeState(clock: ContinuousClock(), options: LuaOptions(memoryLimit: 4_000_000))
    let body = try function(state, """
      return function()
        local t = {}
        for i = 1, math.huge do t[i] = ("x"):rep(1024) .. i end
      end
      """)
    do {
      _ = try await LuaCoroutineDriver.run(body)
      XCTFail("expected an error")
    } catch LuaError.memory(let message) {
      XCTAssertTrue(message.hasPrefix("driven.lua:3: memory limit of 4000000 bytes exceeded"), message)
    }
    XCTAssertEqual(state.memoryLimit, 4_000_000)
  }

  func testOneDriverPerState() throws {
    let first = try LuaState(), second = try LuaState()
    XCTAssertTrue(try LuaCoroutineDriver.of(first) === LuaCoroutineDriver.of(first))
    XCTAssertFalse(try LuaCoroutineDriver.of(first) === LuaCoroutineDriver.of(second))
  }
}
