-- Effects without a Swift task of their own: an Effect.run is a coroutine the engine resumes from
-- callbacks (a test clock reaching a deadline) or from a task made for one await (a live sleep).
-- These pin down the edges: cancelled while it runs, cancelled before its turn, clean-up on
-- cancel, errors after an await, and the order effects start in.
local relua = require "relua"
local Effect, on = relua.Effect, relua.on

-- What `<close>` handlers and effect bodies saw (effects cannot send once cancelled).
local log = {}
local function closer(name)
  return setmetatable({}, { __close = function() log[#log + 1] = "closed " .. name end })
end

local Driven = relua.feature "Driven" {
  state = { events = {} },
  actions = {
    selfCancel = {}, sleepThenClose = {}, stop = {}, failLater = {}, failInCatch = {}, caught = "string",
    ordered = {}, cancelBeforeTurn = {}, event = "string", liveSleep = {},
  },
  reduce = on {
    -- The effect sends `stop`, whose reducer cancels the effect that is running. Cancellation is
    -- cooperative, as in TCA: the body goes on to its next await, where it stops; what it sends
    -- after the cancel is dropped; its `<close>` runs.
    selfCancel = function(_, _, deps)
      return Effect.run(function(send)
        local _ <close> = closer("selfCancel")
        send("stop")
        log[#log + 1] = "after stop"
        send("event", "after stop")
        deps.clock.sleep(1)
        log[#log + 1] = "after sleep"
      end):cancellable("work")
    end,
    stop = function() return Effect.cancel("work") end,
    sleepThenClose = function(_, _, deps)
      return Effect.run(function(send)
        local _ <close> = closer("sleeper")
        deps.clock.sleep(10)
        send("event", "woke")
      end):cancellable("work")
    end,
    failLater = function(_, _, deps)
      return Effect.run(function()
        deps.clock.sleep(1)
        error("broke after a second", 0)
      end):catch(function(message, send)
        deps.clock.sleep(1)
        send("caught", message)
      end)
    end,
    failInCatch = function()
      return Effect.run(function() error("first") end):catch(function() error("catch broke too") end)
    end,
    caught = function(s, message) s.caught = message end,
    ordered = function()
      local function say(word) return Effect.run(function(send) send("event", word) end) end
      return Effect.merge(say("a"), Effect.concatenate(say("b1"), say("b2")), say("c"))
    end,
    cancelBeforeTurn = function()
      return Effect.merge(
        Effect.run(function(send) send("event", "never") end):cancellable("work"),
        Effect.cancel("work"))
    end,
    event = function(s, word) s.events[#s.events + 1] = word end,
    liveSleep = function(_, _, deps)
      return Effect.run(function(send)
        deps.clock.sleep(0.01)
        send("event", "slept live")
      end)
    end,
  },
}

local function newStore()
  log = {}
  return relua.TestStore(Driven, { deps = { clock = "test" } })
end

test("an effect cancelled by the action it sent sends nothing more and runs its <close>", function()
  local store = newStore()
  store:send("selfCancel")
  store:receive("stop")
  store:advance(2)
  store:finish()
  assert_equal(log, { "after stop", "closed selfCancel" })
end)

test("cancelling a sleeping effect runs its <close> at once", function()
  local store = newStore()
  store:send("sleepThenClose")
  store:advance(1)
  assert_equal(log, {})
  store:send("stop")
  assert_equal(log, { "closed sleeper" })
  store:advance(20)
  store:finish()
end)

test("an error after an await reaches catch, which can await too", function()
  local store = newStore()
  store:send("failLater")
  store:advance(1)
  store:advance(1)
  store:receive("caught", function(s) s.caught = "broke after a second" end)
  store:finish()
end)

test("an error in catch becomes a warning naming the effect's line", function()
  local store = relua.Store(Driven, { deps = { clock = "test" } })
  store:send("failInCatch")
  store:wait()
  local warnings = store:warnings()
  expect(#warnings).to_be(1)
  expect(warnings[1]).to_match("The catch of an Effect.run at .*effects_driven_test.lua:%d+ raised: .*catch broke too")
end)

test("effects start in the order they were returned, run and concatenation alike", function()
  local store = newStore()
  store:send("ordered")
  store:receive("event", "a", function(s) s.events = { "a" } end)
  store:receive("event", "c", function(s) s.events[2] = "c" end)
  store:receive("event", "b1", function(s) s.events[3] = "b1" end)
  store:receive("event", "b2", function(s) s.events[4] = "b2" end)
  store:finish()
end)

test("an effect cancelled before its first turn never runs", function()
  local store = newStore()
  store:send("cancelBeforeTurn")
  store:finish()
end)

test("a sleep on the live clock inside an effect", function()
  local store = relua.Store(Driven, { deps = { clock = "live" } })
  store:send("liveSleep")
  store:wait()
  assert_equal(store:state().events, { "slept live" })
end)
