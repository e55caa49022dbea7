-- TCA's TimersTests and LongLivingEffectsTests, ported step for step; and the rules of streams
-- in effects (#18): a loop over a stream yields to the engine between elements and ends when the
-- effect is cancelled, its to-be-closed variables run.
local relua = require "relua"
local feature, on, Effect = relua.feature, relua.on, relua.Effect
local Timers = require "Features.CaseStudies.Timers"
local LongLivingEffects = require "Features.CaseStudies.LongLivingEffects"

local port = require "Tests.Support.TCAPort"(nil)

port("TCA TimersTests", "basics", function()
  local store = relua.TestStore(Timers, { deps = { clock = "test" } })
  store:send("toggleTimerButtonTapped", function(s) s.isTimerActive = true end)
  store:advance(1)
  store:receive("timerTicked", function(s) s.secondsElapsed = 1 end)
  store:advance(5)
  store:receive("timerTicked", function(s) s.secondsElapsed = 2 end)
  store:receive("timerTicked", function(s) s.secondsElapsed = 3 end)
  store:receive("timerTicked", function(s) s.secondsElapsed = 4 end)
  store:receive("timerTicked", function(s) s.secondsElapsed = 5 end)
  store:receive("timerTicked", function(s) s.secondsElapsed = 6 end)
  store:send("toggleTimerButtonTapped", function(s) s.isTimerActive = false end)
end)

port("TCA LongLivingEffectsTests", "basics", function()
  local store = relua.TestStore(LongLivingEffects)
  local task = store:send("task")
  -- Simulate a screenshot being taken
  store:post("userDidTakeScreenshot")
  store:receive("userDidTakeScreenshotNotification", function(s) s.screenshotCount = 1 end)
  -- Simulate screen going away
  task:cancel()
  -- Simulate a screenshot being taken to show no effects are executed.
  expect(store:post("userDidTakeScreenshot")).to_be(0)
end)

describe("streams in effects", function()
  it("a timer's loop ends when the effect is cancelled, and its to-be-closed variables run", function()
    local closed = 0
    local F = feature "F" {
      state = { ticks = 0 },
      actions = { start = {}, stop = {}, tick = {} },
      reduce = on {
        start = function(_, _, deps)
          return Effect.run(function(send)
            local guard <close> = setmetatable({}, { __close = function() closed = closed + 1 end })  -- luacheck: ignore 211/guard (used by being closed)
            for _ in deps.clock.timer(0.5) do send("tick") end
          end):cancellable("t")
        end,
        stop = function() return Effect.cancel("t") end,
        tick = function(s) s.ticks = s.ticks + 1 end,
      },
    }
    local store = relua.TestStore(F, { deps = { clock = "test" } })
    store:send("start")
    store:advance(1)
    store:receive("tick", function(s) s.ticks = 1 end)
    store:receive("tick", function(s) s.ticks = 2 end)
    store:send("stop")
    expect(closed).to_be(1)
    store:advance(10)
  end)

  it("a post reaches every loop over that name, in turn; one not yet waiting gets it when it asks", function()
    local F = feature "F" {
      state = { got = {} },
      actions = { listen = "string", got = "string" },
      reduce = on {
        listen = function(_, who, deps)
          return Effect.run(function(send)
            for value in deps.notifications("saved") do send("got", who .. ":" .. value) end
          end):cancellable(who)
        end,
        got = function(s, text) s.got[#s.got + 1] = text end,
      },
    }
    local store = relua.TestStore(F)
    local one = store:send("listen", "one")
    local two = store:send("listen", "two")
    expect(store:post("saved", "a")).to_be(2)
    store:receive("got", "one:a", function(s) s.got = { "one:a" } end)
    store:receive("got", "two:a", function(s) s.got = { "one:a", "two:a" } end)
    expect(store:post("other", "x")).to_be(0)
    one:cancel()
    two:cancel()
  end)

  it("a receive that only a post could answer fails at once, naming why", function()
    local store = relua.TestStore(LongLivingEffects)
    local task = store:send("task")
    local ok, err = pcall(store.receive, store, "userDidTakeScreenshotNotification")
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("every effect still running waits for the test")
    task:cancel()
  end)

  it("a loop that breaks lets its source go; a timer's seconds are checked", function()
    local F = feature "F" {
      state = { n = 0 },
      actions = { run = {}, tick = {} },
      reduce = on {
        run = function(_, _, deps)
          return Effect.run(function(send)
            for n in deps.clock.timer(1) do
              send("tick")
              if n == 2 then break end
            end
          end)
        end,
        tick = function(s) s.n = s.n + 1 end,
      },
    }
    local store = relua.TestStore(F, { deps = { clock = "test" } })
    store:send("run")
    store:advance()
    store:receive("tick", function(s) s.n = 1 end)
    store:receive("tick", function(s) s.n = 2 end)
    store:finish()
  end)
end)
