-- The test store's rules for effects (#18): effects run on the main actor, the test store's
-- serial executor; `advance` returns when every effect has reached its next suspension; a
-- `receive` or `finish` that nothing can answer fails at once (every effect left is parked on the
-- test clock), the timeout being only for effects waiting on a live dependency; `advance()` runs
-- the clock until no sleep is left (TCA's clock.run()).
local relua = require "relua"
local feature, on, Effect = relua.feature, relua.on, relua.Effect

local Timers = feature "Timers" {
  state = { log = {}, ticks = 0 },
  actions = { start = {}, startLoop = {}, a = {}, b = {}, c = {}, tick = {}, stop = {} },
  reduce = on {
    start = function(_, _, deps)
      return Effect.merge(
        Effect.run(function(send) deps.clock.sleep(2); send("b") end),
        Effect.run(function(send) deps.clock.sleep(1); send("a") end),
        Effect.run(function(send) deps.clock.sleep(2); send("c") end))
    end,
    startLoop = function(_, _, deps)
      return Effect.run(function(send)
        while true do deps.clock.sleep(1); send("tick") end
      end):cancellable("loop")
    end,
    stop = function() return Effect.cancel("loop") end,
    a = function(s) s.log[#s.log + 1] = "a" end,
    b = function(s) s.log[#s.log + 1] = "b" end,
    c = function(s) s.log[#s.log + 1] = "c" end,
    tick = function(s) s.ticks = s.ticks + 1 end,
  },
}

describe("store:advance()", function()
  it("runs the clock until no sleep is left: deadlines in order, ties in the order the sleeps began", function()
    local store = relua.TestStore(Timers, { deps = { clock = "test" } })
    store:send("start")
    store:advance()
    store:receive("a", function(s) s.log = { "a" } end)
    store:receive("b", function(s) s.log = { "a", "b" } end)
    store:receive("c", function(s) s.log = { "a", "b", "c" } end)
  end)

  it("fails, naming why, when an effect sleeps in a loop", function()
    local store = relua.TestStore(Timers, { deps = { clock = "test" } })
    store:exhaustive(false)
    store:send("startLoop")
    local ok, err = pcall(store.advance, store)
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("Expected all sleeps to finish, but some are still pending after 10000 were woken.")
    store:skipReceivedActions()
    expect(store:state().ticks).to_be(10000)
    store:send("stop")
  end)

  it("with seconds, moves exactly that far", function()
    local store = relua.TestStore(Timers, { deps = { clock = "test" } })
    store:send("start")
    store:advance(1)
    store:receive("a", function(s) s.log = { "a" } end)
    store:advance(1)
    store:receive("b", function(s) s.log = { "a", "b" } end)
    store:receive("c", function(s) s.log = { "a", "b", "c" } end)
  end)
end)

describe("a receive nothing can answer", function()
  it("fails at once when every effect left is asleep on the test clock", function()
    local store = relua.TestStore(Timers, { deps = { clock = "test" } })
    store:send("start")
    local ok, err = pcall(store.receive, store, "a")
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("Expected to receive an action matching a, but received none: every effect still running waits for the test (asleep on the test clock: advance it")
    store:advance(2)
    store:receive("a", function(s) s.log = { "a" } end)
    store:skipReceivedActions()
  end)

  it("fails at once when no effect is left", function()
    local store = relua.TestStore(Timers, { deps = { clock = "test" } })
    local ok, err = pcall(store.receive, store, "a")
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("but received none: no effect is running to send it.")
  end)
end)

describe("store:finish()", function()
  it("fails at once for effects asleep on the test clock, without waiting (it does not move the clock, as TCA's)", function()
    local store = relua.TestStore(Timers, { deps = { clock = "test" } })
    store:send("startLoop")
    local ok, err = pcall(store.finish, store, 30)   -- a wait of 30 s would time the suite out
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("An effect returned for this action is still running.")
    expect(tostring(err):find("(Waited", 1, true)).to_be_nil()
  end)

  it("with an immediate clock, lets effects end", function()
    local store = relua.TestStore(Timers, { deps = { clock = "immediate" } })
    store:exhaustive(false)
    store:send("start")
    store:finish()
    expect(#store:state().log).to_be(3)
  end)
end)

describe("an effect's error names the script line that returned it", function()
  it("the line of a tail-called Effect.run (its function's), not a Swift file", function()
    local Failing = relua.feature "Failing" {
      state = {}, actions = { go = {} },
      reduce = relua.on { go = function()
        return relua.Effect.run(function() error("boom", 0) end)
      end },
    }
    local store = relua.Store(Failing)
    store:send("go")
    store:wait()
    local warning = store:warnings()[1] or ""
    expect(warning).to_match('returned from "[^"]*effects_exact_test%.lua:%d+" threw an unhandled error: boom')
    expect(warning:find(".swift", 1, true)).to_be_nil()
  end)
end)

describe("an await inside a coroutine of the script's own", function()
  it("says exactly why it cannot wait there, at the line that awaited", function()
    local F = relua.feature "F" {
      state = { err = "" }, actions = { go = {}, failed = "string" },
      reduce = relua.on {
        go = function(_, _, deps)
          return relua.Effect.run(function(send)
            local nested = coroutine.wrap(function() deps.clock.sleep(1) end)
            local _, err = pcall(nested)
            send("failed", tostring(err))
          end)
        end,
        failed = function(s, e) s.err = e end,
      },
    }
    local store = relua.TestStore(F, { deps = { clock = "test" } })
    store:exhaustive(false)
    store:send("go")
    store:receive("failed")
    local err = store:state().err
    expect(err).to_match("effects_exact_test%.lua:%d+: 'deps%.clock%.sleep' is asynchronous and cannot wait inside a coroutine of the script's own")
  end)
end)
