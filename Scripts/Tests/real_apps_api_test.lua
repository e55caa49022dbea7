-- Issue #34, what a real TCA app's tests need of the stores and the TestStore, step for step in the
-- style of TCA's tests: a root feature that dismisses itself (TCA's `store.isDismissed`), the state
-- asserted without an action (`store.assert { … }`), exhaustivity for a block
-- (`store.withExhaustivity(.off) { … }`), sends re-entered from a reducer (a warning, TCA 1.25),
-- and a store released cancelling its effects (TCA 1.18). Each with the failures it gives.
local relua = require "relua"
local feature, on, Effect = relua.feature, relua.on, relua.Effect
local places = require "Tests.Support.ErrorPlaces"

-- A recording screen: a timer that ticks each second until the third tick, when the screen
-- dismisses itself (TCA's RecordMeeting: `await dismiss()` once the meeting ends).
local Recording = feature "Recording" {
  state = { ticks = 0 },
  actions = { onTask = {}, timerTicked = {}, endMeeting = {} },
  reduce = on {
    onTask = function(_, _, deps)
      return Effect.run(function(send)
        while true do
          deps.clock.sleep(1)
          send("timerTicked")
        end
      end)
    end,
    timerTicked = function(s)
      s.ticks = s.ticks + 1
      if s.ticks == 3 then return Effect.send("endMeeting") end
    end,
    endMeeting = function(_, _, deps) return Effect.run(function() deps.dismiss() end) end,
  },
}
-- (The line of `deps.dismiss()` above: the messages name it.)
local dismissLine = 28
-- This file as its chunk is named (the runner names it by the path it was given).
local thisFile = select(2, pcall(function() error("", 1) end)):match("^(.-):%d+: $")

describe("a root feature that dismisses itself (TCA's TestStore.isDismissed)", function()
  it("ends its test: the timer still running is skipped, the test passes exhaustively", function()
    local store = relua.TestStore(Recording, { deps = { clock = "test" } })
    store:send("onTask")
    expect(store.isDismissed).to_be(false)
    store:advance(1)
    store:receive("timerTicked", function(s) s.ticks = 1 end)
    store:advance(1)
    store:receive("timerTicked", function(s) s.ticks = 2 end)
    store:advance(1)
    store:receive("timerTicked", function(s) s.ticks = 3 end)
    store:receive("endMeeting")
    expect(store.isDismissed).to_be(true)
    -- Nothing is left running: the timer was cancelled when the screen dismissed itself.
    store:finish()
  end)

  it("refuses a later send: a failure at the send's line, naming where it dismissed itself", function()
    local store = relua.TestStore(Recording, { deps = { clock = "test" } })
    store:send("onTask")
    store:advance(3)
    store:receive("timerTicked", function(s) s.ticks = 1 end)
    store:receive("timerTicked", function(s) s.ticks = 2 end)
    store:receive("timerTicked", function(s) s.ticks = 3 end)
    store:receive("endMeeting")
    places.raisesHere(function() store:send("timerTicked") end, function() error("") end,
      "Can't send action to dismissed test store: timerTicked. (The store dismissed itself: dismiss() at " .. thisFile .. ":"
        .. dismissLine .. ".)")
    -- Nothing was sent: the state is as it was.
    expect(store:state().ticks).to_be(3)
  end)

  it("still asserts what was received before the dismissal", function()
    local store = relua.TestStore(Recording, { deps = { clock = "test" } })
    store:send("onTask")
    store:advance(3)
    store:receive("timerTicked", function(s) s.ticks = 1 end)
    expect(function() store:finish() end).to_error("The store received 3 unexpected actions")
  end)

  it("a presented child's dismiss still dismisses the child, not the store", function()
    local Child = feature "RecordingChild" {
      state = {}, actions = { close = {} },
      reduce = on { close = function(_, _, deps) return Effect.run(function() deps.dismiss() end) end },
    }
    local Parent = feature "RecordingParent" {
      state = { child = nil }, actions = { open = {} },
      compose = { relua.presents("child", Child) },
      reduce = on { open = function(s) s.child = {} end },
    }
    local store = relua.TestStore(Parent)
    store:send("open", function(s) s.child = {} end)
    store:send("child.close")
    store:receive("child.dismiss", function(s) s.child = nil end)
    expect(store.isDismissed).to_be(false)
  end)
end)

describe("a live store that dismisses itself", function()
  it("with presented = true: isDismissed, its effects cancelled, later sends refused with a warning naming the line", function()
    local started, closed = false, false
    local Screen = feature "PresentedScreen" {
      state = { count = 0 }, actions = { start = {}, close = {}, tick = {}, go = {} },
      reduce = on {
        start = function(s, _, deps)
          s.count = s.count + 1
          return Effect.run(function()
            started = true
            local closing <close> = setmetatable({}, { __close = function() closed = true end }) -- luacheck: ignore 211
            deps.clock.sleep(9e9)
          end)
        end,
        close = function(_, _, deps) return Effect.run(function() deps.dismiss() end) end,
        tick = function(s) s.count = s.count + 1 end,
        go = function(_, _, deps) return Effect.run(function() deps.clock.sleep(0.001) end) end,
      },
    }
    local store = relua.Store(Screen, { presented = true })
    store:send("start")
    store:send("close")
    -- (A short effect of another store lets the effects have their turns.)
    local other = relua.Store(Screen)
    other:send("go")
    other:wait()
    expect(started).to_be(true)
    expect(store:isDismissed()).to_be(true)
    expect(closed).to_be(true)
    store:send("tick"); local line = select(2, pcall(function() error("", 3) end)) -- luacheck: ignore 211
    expect(store:state().count).to_be(1)
    local warnings = store:warnings()
    expect(#warnings).to_be(1)
    expect(warnings[1]).to_match("^.-real_apps_api_test%.lua:%d+: An action was sent to a store that dismissed itself %(dismiss%(%) at .-real_apps_api_test%.lua:%d+%): tick%. It was not processed%.$")
    expect(warnings[1]:match("^([^:]+:%d+)")).to_be(line:match("^([^:]+:%d+)"))
  end)

  it("without it (TCA's live Store): a warning naming the line, and nothing is dismissed", function()
    local store = relua.Store(Recording, { deps = { clock = "test" } })
    store:send("endMeeting")
    store:wait()
    expect(store:isDismissed()).to_be(false)
    expect(store:warnings()[1]).to_be('A "dismiss" was called from an effect of a feature that is not presented (' .. thisFile .. ':'
      .. dismissLine .. '); nothing was dismissed.')
    store:send("timerTicked")
    expect(store:state().ticks).to_be(1)
  end)
end)

-- store:assert -------------------------------------------------------------------------------

local Counter = feature "AssertedCounter" {
  state = { count = 0, isEven = true, log = {} },
  actions = { increment = {}, load = {}, loaded = "integer" },
  reduce = on {
    increment = function(s)
      s.count = s.count + 1
      s.isEven = s.count % 2 == 0
    end,
    load = function() return Effect.send("loaded", 42) end,
    loaded = function(s, n) s.count = n end,
  },
}

describe("store:assert (TCA's store.assert { … }): the state without an action", function()
  it("passes when the state is as stated, and when nothing changed", function()
    local store = relua.TestStore(Counter)
    store:send("increment", function(s) s.count = 1; s.isEven = false end)
    store:assert(function(s) expect(s.count).to_be(1) end)
    store:assert(function(s) s.count = 1; s.isEven = false end)
  end)

  it("states what changed since the last step (a non-exhaustive stretch), exhaustively", function()
    local store = relua.TestStore(Counter)
    store:exhaustive(false)
    store:send("increment")
    store:send("increment")
    store:exhaustive(true)
    -- The store asserted the state as it was after each non-exhaustive step: nothing is left.
    store:assert(function(s) s.count = 2 end)
  end)

  it("fails with the usual diff on a mismatch, at its line", function()
    local store = relua.TestStore(Counter)
    store:send("increment", function(s) s.count = 1; s.isEven = false end)
    places.raisesHere(function() store:assert(function(s) s.count = 2 end) end, function() error("") end,
      "A state change does not match expectation: …\n\n"
        .. "      {\n"
        .. "    −   count = 2,\n"
        .. "    +   count = 1,\n"
        .. "        … (2 unchanged)\n"
        .. "      }\n\n"
        .. "(Expected: −, Actual: +)")
  end)

  it("non-exhaustive: only what it states is checked", function()
    local store = relua.TestStore(Counter)
    store:exhaustive(false)
    store:send("increment")
    store:assert(function(s) s.count = 1 end)
    expect(function() store:assert(function(s) s.isEven = true end) end)
      .to_error("A state change does not match expectation")
  end)

  it("received actions must be handled first, as before a send", function()
    local store = relua.TestStore(Counter)
    store:send("load")
    expect(function() store:assert(function(s) s.count = 42 end) end)
      .to_error("Must handle 1 received action before asserting state: …\n\nUnhandled actions:\n  loaded(42)")
  end)

  it("refuses anything but a function", function()
    local store = relua.TestStore(Counter)
    places.raisesHere(function() store:assert({ count = 1 }) end, function() error("") end,
      "bad argument #1 to 'store:assert' (expected a function(state) that makes the state asserted last into the one expected now)")
  end)
end)

-- store:withExhaustivity -----------------------------------------------------------------------

describe("store:withExhaustivity (TCA's withExhaustivity(.off) { … })", function()
  it("is off for the block only, then exhaustive again", function()
    local store = relua.TestStore(Counter)
    store:withExhaustivity("off", function()
      store:send("increment")
      store:send("load")
      store:receive("loaded", function(s) s.count = 42 end)
      expect(store:exhaustivity()).to_be("off")
    end)
    expect(store:exhaustivity()).to_be("on")
    expect(function() store:send("increment") end)
      .to_error("State was not expected to change, but a change occurred")
  end)

  it("'on' inside a non-exhaustive store, with its options kept after", function()
    local store = relua.TestStore(Counter)
    store:exhaustive(false, { showSkipped = true })
    store:withExhaustivity("on", function()
      expect(function() store:send("increment") end).to_error("State was not expected to change")
    end)
    local mode, showing = store:exhaustivity()
    expect(mode).to_be("off")
    expect(showing).to_be(true)
  end)

  it("takes exhaustive's options: { showSkipped = true }", function()
    local store = relua.TestStore(Counter)
    store:withExhaustivity("off", { showSkipped = true }, function()
      store:send("increment", function(s) s.count = 1 end)
    end)
    expect(#store:skipped()).to_be(1)
    expect(store:skipped()[1]).to_contain("Skipped assertions.")
    expect(store:skipped()[1]).to_contain("isEven = true")
  end)

  it("restores the exhaustivity when the block raises, and raises its error", function()
    local store = relua.TestStore(Counter)
    local ok, message = pcall(store.withExhaustivity, store, "off", function()
      store:send("increment")
      error("the block failed")
    end)
    expect(ok).to_be(false)
    expect(tostring(message)).to_match("real_apps_api_test%.lua:%d+: the block failed$")
    expect(store:exhaustivity()).to_be("on")
  end)

  it("returns what the block returns", function()
    local store = relua.TestStore(Counter)
    expect(store:withExhaustivity(false, function() return 1, 2 end)).to_be(1)
  end)

  it("refuses a mode it does not know, and a missing block", function()
    local store = relua.TestStore(Counter)
    places.raisesHere(function() store:withExhaustivity("partly", function() end) end, function() error("") end,
      "bad argument #1 to 'store:withExhaustivity' (expected \"on\" or \"off\", got partly)")
    places.raisesHere(function() store:withExhaustivity("off") end, function() error("") end,
      "bad argument #2 to 'store:withExhaustivity' (expected a function to run)")
  end)
end)

-- Re-entrant sends -----------------------------------------------------------------------------

describe("a send re-entered from a reducer (TCA 1.25: a warning)", function()
  it("to its own store: a warning naming the line; the action is queued after the current one", function()
    local store, line
    local Reentrant = feature "Reentrant" {
      state = { n = 0 }, actions = { first = {}, second = {} },
      reduce = on {
        first = function(s)
          s.n = s.n + 1
          store:send("second"); line = select(2, pcall(function() error("", 3) end)) -- luacheck: ignore 211
          s.n = s.n * 100  -- runs before "second": it is queued
        end,
        second = function(s) s.n = s.n + 1 end,
      },
    }
    store = relua.Store(Reentrant)
    store:send("first")
    expect(store:state().n).to_be(101)
    local warnings = store:warnings()
    expect(#warnings).to_be(1)
    expect(warnings[1]).to_be(line:match("^([^:]+:%d+)") .. ": an action was sent to the store from inside one of its reducers"
      .. " (a re-entrant send): second. It is queued after the current action. Return an effect instead"
      .. " (Effect.send, or send in Effect.run); TCA 1.25 warns of this too and will refuse it.")
  end)

  it("to another store: a warning naming the line on that store; the send fails as before, whole", function()
    local Other = feature "OtherStore" { state = { n = 0 }, actions = { bump = {} }, reduce = on { bump = function(s) s.n = 1 end } }
    local other = relua.Store(Other)
    local line
    local Sender = feature "Sender" {
      state = { n = 0 }, actions = { go = {} },
      reduce = on {
        go = function(s)
          s.n = 1
          line = select(2, pcall(function() error("", 3) end)); other:send("bump")
        end,
      },
    }
    local store = relua.Store(Sender)
    local ok, message = pcall(store.send, store, "go")
    expect(ok).to_be(false)
    expect(tostring(message)).to_contain(line:match("^([^:]+:%d+)") .. ': store:send("bump") was called from inside another'
      .. " store's reducer: a store's reducer cannot run while another's runs. Return an effect instead")
    -- Neither store changed: the sender's send was undone whole, the other's never ran.
    expect(store:state().n).to_be(0)
    expect(other:state().n).to_be(0)
    expect(other:warnings()[1]).to_match('^.-real_apps_api_test%.lua:%d+: store:send%("bump"%) was called from inside a reducer %(a re%-entrant send%) of another store%.')
  end)

  it("a send from an effect is no re-entrant send", function()
    local store
    local FromEffect = feature "FromEffect" {
      state = { n = 0 }, actions = { go = {}, bump = {} },
      reduce = on {
        go = function() return Effect.run(function() store:send("bump") end) end,
        bump = function(s) s.n = s.n + 1 end,
      },
    }
    store = relua.Store(FromEffect)
    store:send("go")
    store:wait()
    expect(store:state().n).to_be(1)
    expect(#store:warnings()).to_be(0)
  end)
end)

-- A store released ---------------------------------------------------------------------------

describe("a store released cancels its effects (TCA 1.18)", function()
  it("a relua.Store collected: its long effect's coroutine is closed", function()
    local started, closed = false, false
    local Long = feature "LongEffect" {
      state = {}, actions = { start = {}, go = {} },
      reduce = on {
        start = function(_, _, deps)
          return Effect.run(function()
            started = true
            local closing <close> = setmetatable({}, { __close = function() closed = true end }) -- luacheck: ignore 211
            deps.clock.sleep(9e9)
          end)
        end,
        go = function(_, _, deps) return Effect.run(function() deps.clock.sleep(0.001) end) end,
      },
    }
    do
      local store = relua.Store(Long)
      store:send("start")
    end
    -- (A short effect of another store lets the long one have its first turn.)
    local other = relua.Store(Long)
    other:send("go")
    other:wait()
    expect(started).to_be(true)
    expect(closed).to_be(false)
    collectgarbage()
    collectgarbage()
    expect(closed).to_be(true)
  end)
end)
