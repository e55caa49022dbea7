-- Send tasks, receiving by predicate, and skipped assertions, as TCA pins them: tests of TCA's
-- StoreTests, TestStoreTests and TestStoreNonExhaustiveTests ported step for step to the relua
-- DSL, plus the failure paths relua adds (a task that does not finish, a bad predicate, a check
-- that raises).
--
-- TCA's `await store.send(…)` value is `store:send(…)`'s task handle; `receive(\.response)` is
-- `receive("response")`, a case path with a value check `receive("response", function(payload) …)`,
-- a predicate `receive(function(action) … end)`; `.off(showSkippedAssertions: true)` is
-- `store:exhaustive(false, { showSkipped = true })`, and the grey boxes TCA shows are the notes of
-- `store:skipped()`. TCA's Int and Bool states are records here (a state is a table).
local relua = require "relua"
local feature, on, Effect = relua.feature, relua.on, relua.Effect
local places = require "Tests.Support.ErrorPlaces"

local port = require "Tests.Support.TCAPort"(nil)

-- Task.never(): suspends until cancelled.
local function never(deps) deps.clock.sleep(9e9) end

-- The one note of `store`, checked to contain each of `parts`.
local function onlyNote(store, ...)
  local notes = store:skipped()
  expect(#notes).to_be(1)
  for _, part in ipairs({ ... }) do expect(notes[1]).to_contain(part) end
  return notes[1]
end

-- StoreTests -------------------------------------------------------------------------------

local ST = "TCA StoreTests"

-- A send's task cancels the effect it started: nothing is left in flight at the end.
port(ST, "testTaskCancellationEmpty", function()
  local F = feature "F" {
    state = {},
    actions = { task = {} },
    reduce = on { task = function(_, _, deps) return Effect.run(function() never(deps) end) end },
  }
  local store = relua.TestStore(F, { deps = { clock = "test" } })
  store:send("task"):cancel()
end)

-- TCA's TestStore cascades the cancel to the effects of the actions the first effect sent; a
-- relua task is the effects its send started (TCA's `Store` means to work so: see
-- ModernStoreTests.cancellation below), so here those keep running until the store stops them.
port(ST, "testCascadingTaskCancellation (a task is its send's effects, not its descendants')", function()
  local F = feature "F" {
    state = {},
    actions = { task = {}, response = {}, response1 = {}, response2 = {} },
    reduce = on {
      task = function() return Effect.run(function(send) send("response") end) end,
      response = function(_, _, deps)
        return Effect.merge(Effect.run(function() never(deps) end), Effect.run(function(send) send("response1") end))
      end,
      response1 = function(_, _, deps)
        return Effect.merge(Effect.run(function() never(deps) end), Effect.run(function(send) send("response2") end))
      end,
      response2 = function(_, _, deps) return Effect.run(function() never(deps) end) end,
    },
  }
  local store = relua.TestStore(F, { deps = { clock = "test" } })
  local task = store:send("task")
  store:receive("response")
  store:receive("response1")
  store:receive("response2")
  task:cancel()
  expect(task:isCancelled()).to_be(true)
  expect(function() store:finish(0.05) end).to_error("An effect returned for this action is still running")
end)

local Isolation = feature "RootStoreCancellationIsolation" {
  state = { count = 0 },
  actions = { cancelButtonTapped = {}, response = "integer", tap = {} },
  reduce = on {
    cancelButtonTapped = function() return Effect.cancel("effect") end,
    response = function(s, value) s.count = value end,
    tap = function(_, _, deps)
      return Effect.run(function(send)
        deps.clock.sleep(0.05)
        send("response", 42)
      end):cancellable("effect")
    end,
  },
}

-- Two root stores share no cancellation ids: cancelling in one leaves the other's effect.
port(ST, "testRootStoreCancellationIsolation", function()
  local store1 = relua.Store(Isolation, { deps = { clock = "live" } })
  local store2 = relua.Store(Isolation, { deps = { clock = "live" } })
  local task1 = store1:send("tap")
  local task2 = store2:send("tap")
  store2:send("cancelButtonTapped")
  task1:finish()
  task2:finish()
  expect(store1:state().count).to_be(42)
  expect(store2:state().count).to_be(0)
end)

port(ST, "testRootStoreCancellationIsolation_TestStore", function()
  local store1 = relua.TestStore(Isolation, { deps = { clock = "test" } })
  local store2 = relua.TestStore(Isolation, { deps = { clock = "test" } })
  store1:send("tap")
  store2:send("tap")
  store2:send("cancelButtonTapped")
  store1:advance(0.05)
  store2:advance(0.05)
  store1:receive("response", function(s) s.count = 42 end)
end)

-- ModernStoreTests.cancellation: cancelling the root effect does not cancel the effects of the
-- actions it sent (TCA marks its own result, 42, as a known issue: it wants 1729).
port(ST, "ModernStoreTests.cancellation", function()
  local TaskTree = feature "TaskTree" {
    state = { count = 0 },
    actions = { tap = {}, response1 = {}, response2 = {} },
    reduce = on {
      tap = function() return Effect.run(function(send) send("response1") end) end,
      response1 = function(s, _, deps)
        s.count = 42
        return Effect.run(function(send)
          deps.clock.sleep(0.05)
          send("response2")
        end)
      end,
      response2 = function(s) s.count = 1729 end,
    },
  }
  local store = relua.Store(TaskTree, { deps = { clock = "live" } })
  local task = store:send("tap")
  task:finish()
  expect(store:state().count).to_be(42)
  task:cancel()
  store:wait()
  expect(store:state().count).to_be(1729)
end)

-- TestStoreTests ---------------------------------------------------------------------------

local TST = "TCA TestStoreTests"

port(TST, "testReceiveActionMatchingPredicate", function()
  local F = feature "F" {
    state = {},
    actions = { noop = {}, finished = {} },
    reduce = on { noop = function() return Effect.send("finished") end },
  }
  local store = relua.TestStore(F)
  local called = false
  store:send("noop")
  store:receive(function(action)
    called = true
    return action.name == "finished"
  end)
  expect(called).to_be(true)

  store:send("noop")
  expect(function() store:receive("noop") end).to_error("Received unexpected action: …\n\n  − noop\n  + finished")

  store:send("noop")
  expect(function() store:receive(function(action) return action.name == "noop" end) end)
    .to_error("Received unexpected action: …\n\n  finished")
end)

-- A long-living effect the test ends by cancelling its send's task (TCA's subject).
port(TST, "testSubscribeReceiveCombineScheduler", function()
  local F = feature "F" {
    state = { count = 0 },
    actions = { increment = {}, start = {} },
    reduce = on {
      start = function(_, _, deps)
        return Effect.run(function(send)
          while true do
            deps.clock.sleep(1)
            send("increment")
          end
        end)
      end,
      increment = function(s) s.count = s.count + 1 end,
    },
  }
  local store = relua.TestStore(F, { deps = { clock = "test" } })
  local task = store:send("start")
  store:advance(1)
  store:receive("increment", function(s) s.count = 1 end)
  task:cancel()
  store:advance(1)  -- the cancelled effect sends nothing more
end)

local Delegate = feature "Delegate" { state = {}, actions = { success = "integer" } }
local KeyPaths = feature "KeyPaths" {
  state = { value = 0, delegate = {} },
  actions = { tap = {}, viewTap = {}, viewDelete = "{integer}" },
  compose = { relua.scope("delegate", Delegate) },
  reduce = on {
    tap = function() return Effect.send("delegate.success", 42) end,
    viewTap = function(s)
      s.value = s.value + 1
      return Effect.send("delegate.success", 42 * 42)
    end,
    viewDelete = function(s, indices)
      local sum = 0
      for _, i in ipairs(indices) do sum = sum + i end
      if sum == 42 then s.value = s.value + 1 end
      return Effect.send("delegate.success", sum)
    end,
  },
}

port(TST, "testReceiveCaseKeyPathWithValue", function()
  local store = relua.TestStore(KeyPaths)
  store:send("tap")
  store:receive("delegate.success", 42)

  store:send("tap")
  expect(function() store:receive("delegate.success", 43) end)
    .to_error("Received unexpected action: …\n\n  − delegate.success(43)\n  + delegate.success(42)\n\n(Expected: −, Received: +)")
end)

-- The same with payload checks: `receive(name, check, expect)`.
port(TST, "testSendCaseKeyPath", function()
  local store = relua.TestStore(KeyPaths)
  local function is(n) return function(payload) return payload == n end end
  store:send("tap")
  store:receive("delegate.success", is(42), nil)

  store:send("viewTap", function(s) s.value = 1 end)
  store:receive("delegate.success", is(42 * 42), nil)

  store:send("viewDelete", { 0 })
  store:receive("delegate.success", is(0), nil)

  store:send("viewDelete", { 19, 23 }, function(s) s.value = 2 end)
  store:receive("delegate.success", is(42), nil)

  store:send("tap")
  expect(function() store:receive("delegate.success", is(43), nil) end)
    .to_error("Received unexpected action: …\n\n  delegate.success(42)")
end)

-- TestStoreNonExhaustiveTests ---------------------------------------------------------------

local NET = "TCA TestStoreNonExhaustiveTests"

-- TCA's Reduce<Int, Bool>: true adds one and sends false, which adds one.
local BoolCounter = feature "BoolCounter" {
  state = { value = 0 },
  actions = { yes = {}, no = {} },
  reduce = on {
    yes = function(s)
      s.value = s.value + 1
      return Effect.send("no")
    end,
    no = function(s) s.value = s.value + 1 end,
  },
}

local Counter = feature "Counter" {
  state = { count = 0, isEven = true },
  actions = { increment = {}, decrement = {} },
  reduce = on {
    increment = function(s) s.count, s.isEven = s.count + 1, not s.isEven end,
    decrement = function(s) s.count, s.isEven = s.count - 1, not s.isEven end,
  },
}

local NonExhaustiveReceive = feature "NonExhaustiveReceive" {
  state = { count = 0, int = 0, string = "" },
  actions = { onAppear = {}, response1 = "integer", response2 = "string" },
  reduce = on {
    onAppear = function(s)
      s.count, s.int, s.string = 0, 0, ""
      return Effect.merge(Effect.send("response1", 42), Effect.send("response2", "Hello"))
    end,
    response1 = function(s, int) s.count, s.int = s.count + 1, int end,
    response2 = function(s, string) s.count, s.string = s.count + 1, string end,
  },
}

local function sleeper(duration)
  return feature "Sleeper" {
    state = {},
    actions = { go = {} },
    reduce = on { go = function(_, _, deps) return Effect.run(function() deps.clock.sleep(duration) end) end },
  }
end

-- The second half (skipInFlightEffects(strict: true)) has no relua counterpart.
port(NET, "testCancelInFlightEffects_Strict", function()
  local store = relua.TestStore(sleeper(0), { deps = { clock = "immediate" } })
  local task = store:send("go")
  task:finish(0.5)
  expect(task:isCancelled()).to_be(false)
end)

port(NET, "testSkipReceivedActions_PartialExhaustive", function()
  local store = relua.TestStore(BoolCounter)
  store:exhaustive(false, { showSkipped = true })
  store:send("yes", function(s) s.value = 1 end)
  expect(store:state().value).to_be(1)
  store:skipReceivedActions()
  expect(store:state().value).to_be(2)
  onlyNote(store, "Skipped assertions.\n\n1 received action was skipped: …\n\n  no")
end)

port(NET, "testCancelInFlightEffects_PartialExhaustive", function()
  local store = relua.TestStore(sleeper(1), { deps = { clock = "test" } })
  store:exhaustive(false, { showSkipped = true })
  store:send("go")
  store:skipInFlightEffects()
  onlyNote(store, "Skipped assertions.\n\n1 in-flight effect was cancelled, originating from: …\n\n  go")
end)

-- You don't have to receive all actions before the test completes (the runner notes them).
port(NET, "testIgnoreReceiveActions_PartialExhaustive", function()
  local store = relua.TestStore(BoolCounter)
  store:exhaustive(false, { showSkipped = true })
  store:send("yes")
end)

-- All effects do not need to complete before the test completes (the runner notes them).
port(NET, "testIgnoreInFlightEffects_PartialExhaustive", function()
  local store = relua.TestStore(sleeper(1), { deps = { clock = "test" } })
  store:exhaustive(false, { showSkipped = true })
  store:send("go")
end)

port(NET, "testNonExhaustiveSend_PartialExhaustive", function()
  local store = relua.TestStore(Counter)
  store:exhaustive(false, { showSkipped = true })
  store:send("increment", function(s) s.count = 1 end)  -- Ignoring state change: isEven = false
  store:send("increment", function(s) s.isEven = true end)  -- Ignoring state change: count = 2
  store:send("increment", function(s) s.count, s.isEven = 3, false end)
  local notes = store:skipped()
  expect(#notes).to_be(2)
  expect(notes[1]).to_contain("Skipped assertions.\n\nA state change does not match expectation: …")
  expect(notes[1]).to_contain("−   isEven = true,\n    +   isEven = false,")
  expect(notes[2]).to_contain("−   count = 1,\n    +   count = 2,")
end)

port(NET, "testNonExhaustiveSend_PartialExhaustive_Prefix", function()
  local store = relua.TestStore(Counter)
  store:exhaustive(false, { showSkipped = true })
  store:send("increment", function(s) s.count = 1 end)
  onlyNote(store, "A state change does not match expectation", "+   isEven = false,")
end)

-- A wrong assertion still fails in a non-exhaustive store, and is no note.
port(NET, "testNonExhaustiveSend_PartialExhaustive_BadAssertion", function()
  local store = relua.TestStore(Counter)
  store:exhaustive(false, { showSkipped = true })
  expect(function() store:send("increment", function(s) s.count = 0 end) end)
    .to_error("A state change does not match expectation: …\n\n      {\n    −   count = 0,\n    +   count = 1,")
  expect(#store:skipped()).to_be(0)
end)

-- Without showSkipped nothing is noted.
port(NET, "testNonExhaustiveSend_NonExhaustive", function()
  local store = relua.TestStore(Counter)
  store:exhaustive(false)
  store:send("increment", function(s) s.count = 1 end)
  store:send("increment")
  expect(#store:skipped()).to_be(0)
end)

local LoggedIn = feature "LoggedIn" {
  state = { count = 0, isLoggedIn = false },
  actions = { decrement = {}, increment = {}, loggedInResponse = "boolean" },
  reduce = on {
    decrement = function(s) s.count = s.count - 1 end,
    increment = function(s)
      s.count = s.count + 1
      return Effect.send("loggedInResponse", true)
    end,
    loggedInResponse = function(s, response) s.isLoggedIn = response end,
  },
}

port(NET, "testSend_SkipReceivedActions", function()
  local store = relua.TestStore(LoggedIn)
  store:exhaustive(false, { showSkipped = true })
  store:send("increment", function(s) s.count = 1 end)
  -- Ignored received action: loggedInResponse(true)
  store:send("decrement", function(s) s.count = 0 end)
  -- Ignored state change: isLoggedIn = true (noted with the action that made it)
  onlyNote(store, "1 received action was skipped: …\n\n  loggedInResponse(true)")
  expect(store:state()).to_equal({ count = 0, isLoggedIn = true })
end)

port(NET, "testSend_SkipReceivedActions_BadAssertion", function()
  local store = relua.TestStore(LoggedIn)
  store:exhaustive(false, { showSkipped = true })
  store:send("increment", function(s) s.count = 1 end)
  expect(function()
    store:receive("loggedInResponse", true, function(s) s.count, s.isLoggedIn = 2, true end)
  end).to_error("A state change does not match expectation: …\n\n      {\n    −   count = 2,\n    +   count = 1,")
end)

port(NET, "testMultipleSendsWithAssertionOnLast", function()
  local store = relua.TestStore(Counter)
  store:exhaustive(false, { showSkipped = true })
  store:send("increment")
  expect(store:state()).to_equal({ count = 1, isEven = false })
  store:send("increment")
  expect(store:state()).to_equal({ count = 2, isEven = true })
  store:send("increment", function(s) s.count = 3 end)
  expect(store:state()).to_equal({ count = 3, isEven = false })
  local notes = store:skipped()
  expect(#notes).to_be(3)
  expect(notes[1]).to_contain("State was not expected to change, but a change occurred: …")
  expect(notes[3]).to_contain("A state change does not match expectation: …")
end)

port(NET, "testReceive_StateChange", function()
  local store = relua.TestStore(NonExhaustiveReceive)
  store:exhaustive(false, { showSkipped = true })
  store:send("onAppear")
  expect(store:state()).to_equal({ count = 0, int = 0, string = "" })
  store:receive("response1", 42, function(s) s.int = 42 end)  -- Ignored state change: count = 1
  expect(store:state()).to_equal({ count = 1, int = 42, string = "" })
  store:receive("response2", "Hello", function(s) s.string = "Hello" end)  -- Ignored state change: count = 2
  expect(store:state()).to_equal({ count = 2, int = 42, string = "Hello" })
  local notes = store:skipped()
  expect(#notes).to_be(2)
  expect(notes[1]).to_contain("−   count = 0,\n    +   count = 1,")
  expect(notes[2]).to_contain("−   count = 1,\n    +   count = 2,")
end)

port(NET, "testReceive_SkipAction", function()
  local store = relua.TestStore(NonExhaustiveReceive)
  store:exhaustive(false, { showSkipped = true })
  store:send("onAppear")
  -- Ignored received action: response1(42)
  store:receive("response2", "Hello", function(s) s.count, s.string = 2, "Hello" end)
  expect(store:state()).to_equal({ count = 2, int = 42, string = "Hello" })
  -- int = 42 came with the skipped action, and is noted with it.
  onlyNote(store, "1 received action was skipped: …\n\n  response1(42)")
end)

port(NET, "testSendWithUnreceivedAction", function()
  local store = relua.TestStore(NonExhaustiveReceive)
  store:exhaustive(false, { showSkipped = true })
  store:send("onAppear")
  store:send("onAppear")
  local notes = store:skipped()
  expect(#notes).to_be(2)
  expect(notes[1]).to_contain("2 received actions were skipped: …\n\n  response1(42)\n  response2(\"Hello\")")
  -- The second onAppear resets the state the skipped actions made.
  expect(notes[2]).to_contain("State was not expected to change")
end)

port(NET, "testPartialExhaustivityPrefix", function()
  local F = feature "F" {
    state = { value = 0 },
    actions = { buttonTapped = {}, response = "integer" },
    reduce = on {
      buttonTapped = function(s, _, deps)
        s.value = s.value + 1
        return Effect.run(function(send)
          send("response", 42)
          deps.clock.sleep(1)
          send("response", 1729)
        end)
      end,
      response = function(s, number) s.value = number end,
    },
  }
  local store = relua.TestStore(F, { deps = { clock = "test" } })
  store:exhaustive(false, { showSkipped = true })
  store:send("buttonTapped")
  -- Ignored state mutation: value = 1; ignored received action: response(42)
  store:advance(0.5)
  store:send("buttonTapped", function(s) s.value = 43 end)
  store:advance(0.5)
  store:skipInFlightEffects()
  store:skipReceivedActions()
  -- Ignored received actions: response(42), response(1729); ignored in-flight effect
  local notes = store:skipped()
  expect(#notes).to_be(4)
  expect(notes[1]).to_contain("State was not expected to change, but a change occurred")
  expect(notes[2]).to_contain("1 received action was skipped: …\n\n  response(42)")
  expect(notes[3]).to_contain("1 in-flight effect was cancelled, originating from: …\n\n  buttonTapped")
  expect(notes[4]).to_contain("2 received actions were skipped: …\n\n  response(42)\n  response(1729)")
end)

port(NET, "testCasePathReceive_PartialExhaustive", function()
  local store = relua.TestStore(NonExhaustiveReceive)
  store:exhaustive(false, { showSkipped = true })
  store:send("onAppear")
  store:receive("response1", function(s) s.int = 42 end)
  store:receive("response2", function(s) s.string = "Hello" end)
  expect(#store:skipped()).to_be(2)
end)

port(NET, "testCasePathReceive_Exhaustive", function()
  local store = relua.TestStore(NonExhaustiveReceive)
  store:send("onAppear")
  store:receive("response1", function(s) s.count, s.int = 1, 42 end)
  store:receive("response2", function(s) s.count, s.string = 2, "Hello" end)
end)

port(NET, "testPredicateReceive_Exhaustive_NonEquatable", function()
  local F = feature "F" {
    state = {},
    actions = { tap = {}, response = "table" },
    reduce = on { tap = function() return Effect.send("response", { kind = "NonEquatable" }) end },
  }
  local store = relua.TestStore(F)
  store:send("tap")
  store:receive(function(action) return action.name == "response" end)
end)

port(NET, "testCasePathReceive_SkipReceivedAction", function()
  local store = relua.TestStore(NonExhaustiveReceive)
  store:exhaustive(false, { showSkipped = true })
  store:send("onAppear")
  store:receive("response2", function(s) s.string = "Hello" end)
  expect(store:skipped()[1]).to_contain("1 received action was skipped: …\n\n  response1(42)")
end)

port(NET, "testCasePathReceive_WrongAction", function()
  local store = relua.TestStore(NonExhaustiveReceive)
  store:exhaustive(false, { showSkipped = true })
  store:send("onAppear")
  expect(function() store:receive("onAppear") end).to_error("Expected to receive an action matching the predicate, but received none")
  store:receive("response1")
  store:receive("response2")
end)

port(NET, "testCasePathReceive_ReceivedExtraAction", function()
  local store = relua.TestStore(NonExhaustiveReceive)
  store:exhaustive(false, { showSkipped = true })
  store:send("onAppear")
  store:receive("response2")
  expect(function() store:receive("response2") end)
    .to_error("Expected to receive an action matching response2, but received none: no effect is running to send it.")
end)

port(NET, "testNonExhaustive_ShowSkippedAssertions_ExpectedStateToChange", function()
  local F = feature "F" { state = { value = 0 }, actions = { tap = {} } }
  local store = relua.TestStore(F)
  store:exhaustive(false, { showSkipped = true })
  store:send("tap", function(s) s.value = 0 end)
  expect(#store:skipped()).to_be(0)
end)

-- relua: tasks --------------------------------------------------------------------------------

describe("store:send's task", function()
  local Tasks = feature "Tasks" {
    state = { n = 0 },
    actions = { inc = {}, start = {}, tick = {}, chain = {}, viaFollowUp = {} },
    reduce = on {
      inc = function(s) s.n = s.n + 1 end,
      start = function(_, _, deps)
        return Effect.run(function(send)
          deps.clock.sleep(0.05)
          send("tick")
        end)
      end,
      tick = function(s) s.n = s.n + 100 end,
      viaFollowUp = function() return Effect.send("start") end,
    },
  }

  it("of a relua.Store: one shared handle for sends without effects, cancelled as TCA's", function()
    local store = relua.Store(Tasks)
    local a, b = store:send("inc"), store:send("inc")
    expect(rawequal(a, b)).to_be(true)
    expect(a:isCancelled()).to_be(true)
    a:cancel()
    a:finish()
    expect(a:finish(0)).to_be(true)
    local scoped = relua.Store(KeyPaths)
    expect(rawequal(scoped:scope("delegate"):send("success", 1), a)).to_be(true)
  end)

  it("of a relua.Store: finish waits, cancel stops the action, finish(seconds) tells", function()
    local store = relua.Store(Tasks, { deps = { clock = "live" } })
    local task = store:send("start")
    expect(task:isCancelled()).to_be(false)
    expect(tostring(task)).to_be("StoreTask (running)")
    task:finish()
    expect(tostring(task)).to_be("StoreTask (finished)")
    expect(tostring(store:send("inc"))).to_be("StoreTask (no effects)")
    expect(store:state().n).to_be(101)
    local cancelled = store:send("start")
    cancelled:cancel()
    expect(cancelled:isCancelled()).to_be(true)
    expect(tostring(cancelled)).to_be("StoreTask (cancelled)")
    store:wait()
    expect(store:state().n).to_be(101)
    local slow = store:send("start")
    expect(slow:finish(0.001)).to_be(false)
    expect(slow:finish()).to_be_nil()
    expect(store:state().n).to_be(201)
    expect(function() slow:finish(-1) end).to_error("bad argument #1 to 'task:finish' (expected seconds")
  end)

  it("covers the effects of the send's synchronous follow-up actions", function()
    local store = relua.TestStore(Tasks, { deps = { clock = "test" } })
    local task = store:send("viaFollowUp")
    store:receive("start")
    task:cancel()
    store:advance(1)
    task:finish(0)
  end)

  it("of a relua.TestStore: finish fails at the script line after the store's timeout", function()
    -- The store's timeout (1 s by default, as TCA's: StoreTaskTests checks it) made short.
    local store = relua.TestStore(Tasks, { deps = { clock = "test" }, timeout = 0.05 })
    local task = store:send("start")
    places.raisesHere(function() task:finish() end, function() error("") end,
      "Expected task to finish, but it is still in-flight after 0.05s.", true)
    local _, message = places.raised(function() task:finish(0.01) end)
    expect(message).to_contain("after 0.01s.")
    expect(message).to_contain("with a test clock, advance it")
    expect(message).to_contain("try increasing the duration of this assertion's \"timeout\"")
    task:cancel()
  end)

  it("of a relua.TestStore: a timeout that is not a number of seconds is refused", function()
    local ok, message = pcall(relua.TestStore, Tasks, { timeout = "soon" })
    expect(ok).to_be(false)
    expect(tostring(message)).to_contain("timeout must be")
  end)
end)

-- relua: receive by predicate ---------------------------------------------------------------

describe("store:receive by predicate", function()
  local Rows = feature "Row" { state = { id = 0 }, actions = { toggle = {}, response = "integer" } }
  local List = feature "List" {
    state = { rows = { { id = 42 } } },
    actions = { load = {} },
    compose = { relua.forEach("rows", Rows) },
    reduce = on { load = function() return Effect.send("rows[id=42].response", 7) end },
  }

  it("gets the action record a plain reducer gets", function()
    local store = relua.TestStore(List)
    store:send("load")
    local seen
    store:receive(function(action)
      seen = action
      return true
    end)
    expect(seen).to_equal({ name = "rows[id=42].response", pattern = "rows.response", payload = 7, id = 42 })
  end)

  it("by name and payload check", function()
    local store = relua.TestStore(List)
    store:send("load")
    local got
    store:receive("rows[id=42].response", function(payload)
      got = payload
      return payload > 5
    end, nil)
    expect(got).to_be(7)
  end)

  it("fails when the check returns false, showing the received action", function()
    local store = relua.TestStore(List)
    store:send("load")
    expect(function() store:receive("rows[id=42].response", function(n) return n > 10 end, nil) end)
      .to_error("Received unexpected action: …\n\n  rows[id=42].response(7)")
  end)

  it("a check that raises fails with its message, at the line of store:receive", function()
    local store = relua.TestStore(List)
    store:send("load")
    local place, message = places.raised(function()
      store:receive("rows[id=42].response", function() error("no payload like that") end, nil)
    end)
    expect(place).to_match("tca_test_store_test.lua:%d+$")
    expect(message).to_contain("The payload check given to store:receive raised an error for rows[id=42].response(7): ")
    expect(message).to_contain("tca_test_store_test.lua")
    expect(message).to_contain("no payload like that")
    expect(message).to_contain("Received unexpected action")
  end)

  it("a predicate that raises fails with its message", function()
    local store = relua.TestStore(List)
    store:send("load")
    expect(function() store:receive(function(action) return action.payload.x end) end)
      .to_error("The predicate given to store:receive raised an error for rows[id=42].response(7)")
  end)

  it("refuses arguments it cannot read", function()
    local store = relua.TestStore(List)
    places.raisesHere(function() store:receive(42) end, function() error("") end,
      "bad argument #1 to 'store:receive' (expected an action name, or a function(action) returning whether it is the action expected)")
    expect(function() store:receive("rows[id=42].response", function() return true end, 5) end)
      .to_error("bad argument #3 to 'store:receive' (the expectation must be a function(state))")
    expect(function() store:receive(function() return true end, function() end, function() end) end)
      .to_error("bad argument #3 to 'store:receive' (too many arguments: store:receive(predicate[, expect]))")
    expect(function() store:receive(function() return true end, "x") end)
      .to_error("bad argument #2 to 'store:receive' (the expectation must be a function(state))")
    expect(function() store:receive("rows[id=42].nope") end).to_error("Row has no action 'nope'")
  end)

  it("with one function after the name, it stays the expectation", function()
    local F = feature "F" {
      state = { n = 0 },
      actions = { go = {}, set = "integer" },
      reduce = on { go = function() return Effect.send("set", 3) end, set = function(s, n) s.n = n end },
    }
    local store = relua.TestStore(F)
    store:send("go")
    store:receive("set", function(s) s.n = 3 end)
  end)
end)

-- relua: showSkipped options ----------------------------------------------------------------

describe("store:exhaustive's showSkipped", function()
  it("is for non-exhaustive stores, and the only option", function()
    local store = relua.TestStore(Counter)
    expect(function() store:exhaustive(true, { showSkipped = true }) end).to_error("showSkipped is for a non-exhaustive store")
    expect(function() store:exhaustive(false, { showSkiped = true }) end).to_error("unknown option 'showSkiped'; the option is showSkipped")
  end)

  it("notes name the script line of the assertion they belong to", function()
    local store = relua.TestStore(Counter)
    store:exhaustive(false, { showSkipped = true })
    store:send("increment", function(s) s.count = 1 end); local here = places.raised(function() error("") end)
    expect(store:skipped()[1]:sub(1, #here + 21)).to_be(here .. ": Skipped assertions.")
  end)

  it("back to exhaustive, unasserted changes fail again", function()
    local store = relua.TestStore(Counter)
    store:exhaustive(false, { showSkipped = true })
    store:exhaustive(true)
    expect(function() store:send("increment", function(s) s.count = 1 end) end).to_error("A state change does not match expectation")
    expect(#store:skipped()).to_be(0)
  end)
end)
