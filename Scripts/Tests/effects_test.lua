local relua = require "relua"
local Effect, on = relua.Effect, relua.on

local Timer = relua.feature "Timer" {
  state = { ticks = 0, running = false },
  actions = {
    start = {}, stop = {}, tick = {}, sleepInReducer = {}, fail = {}, failCaught = {}, caught = "string",
    query = "string", searched = "string", both = {}, first = {}, second = {},
  },
  reduce = on {
    start = function(s, _, deps)
      s.running = true
      return Effect.run(function(send)
        while true do
          deps.clock.sleep(1)
          send("tick")
        end
      end):cancellable("timer", true)
    end,
    stop = function(s)
      s.running = false
      return Effect.cancel("timer")
    end,
    tick = function(s) s.ticks = s.ticks + 1 end,
    sleepInReducer = function(_, _, deps) deps.clock.sleep(1) end,
    fail = function() return Effect.run(function() error("effect exploded") end) end,
    failCaught = function()
      return Effect.run(function() error("network down", 0) end):catch(function(message, send) send("caught", message) end)
    end,
    caught = function(s, message) s.lastError = message end,
    query = function(s, q)
      s.query = q
      return Effect.run(function(send) send("searched", q) end):debounce("search", 0.3)
    end,
    searched = function(s, q) s.searched = q end,
    both = function() return Effect.concatenate(Effect.send("first"), Effect.send("second")) end,
    first = function(s) s.order = (s.order or "") .. "1" end,
    second = function(s) s.order = (s.order or "") .. "2" end,
  },
}

local function newStore()
  return relua.TestStore(Timer, { deps = { clock = "test" } })
end

test("a timer ticks with the test clock and stops when cancelled", function()
  local store = newStore()
  store:send("start", function(s) s.running = true end)
  store:advance(1)
  store:receive("tick", function(s) s.ticks = 1 end)
  store:advance(1)
  store:receive("tick", function(s) s.ticks = 2 end)
  store:send("stop", function(s) s.running = false end)
  store:advance(5)
  store:finish()
end)

test("an effect still running at finish fails the test", function()
  local store = newStore()
  store:send("start", function(s) s.running = true end)
  expect(function() store:finish(0.1) end).to_error("still running")
  store:send("stop", function(s) s.running = false end)
end)

test("an unasserted received action fails the next send", function()
  local store = newStore()
  store:send("start", function(s) s.running = true end)
  store:advance(1)
  expect(function() store:send("stop", function(s) s.running = false end) end).to_error("Must handle 1 received action")
  store:skipReceivedActions()
  store:send("stop")
end)

test("an async dependency called from a plain reducer is a clear error", function()
  local store = newStore()
  expect(function() store:send("sleepInReducer") end)
    .to_error("'deps.clock.sleep' is asynchronous: call it inside Effect.run")
end)

test("an effect error becomes a store warning with its line", function()
  local store = newStore()
  store:send("fail")
  store:finish()
  local warnings = store:warnings()
  expect(#warnings).to_be(1)
  expect(warnings[1]).to_match("effects_test.lua:%d+: effect exploded")
end)

test("catch turns an effect error into an action", function()
  local store = newStore()
  store:send("failCaught")
  store:receive("caught", function(s) s.lastError = "network down" end)
end)

test("debounce sends only the last query", function()
  local store = newStore()
  store:send("query", "t", function(s) s.query = "t" end)
  store:advance(0.1)
  store:send("query", "tca", function(s) s.query = "tca" end)
  store:advance(0.3)
  store:receive("searched", "tca", function(s) s.searched = "tca" end)
  store:finish()
end)

test("concatenated sends arrive in order", function()
  local store = newStore()
  store:send("both")
  store:receive("first", function(s) s.order = "1" end)
  store:receive("second", function(s) s.order = "12" end)
end)

test("a test that ends with an unasserted action fails (checked by the runner)", function()
  local store = newStore()
  store:send("both")
  -- `first` and `second` were received but not asserted: the runner fails this test at its end.
  -- Assert them here so the suite passes; tests/ReluaTests checks the failing form.
  store:receive("first", function(s) s.order = "1" end)
  store:receive("second", function(s) s.order = "12" end)
end)

test("store:cancelEffect(n) cancels the n-th effect started; a bad number is an error and changes nothing", function()
  local store = newStore()
  store:send("start", function(s) s.running = true end)
  store:advance(1)
  store:receive("tick", function(s) s.ticks = 1 end)
  for _, bad in ipairs({ 0, -1, 2, math.maxinteger, math.mininteger }) do
    expect(function() store:cancelEffect(bad) end).to_error("store:cancelEffect(" .. bad .. "): this store started 1 effect(s)")
  end
  expect(function() store:cancelEffect(1.5) end).to_error("expected the effect's number")
  expect(function() store:cancelEffect("1") end).to_error("expected the effect's number")
  -- The timer still runs after the refusals, and its cancel is the test's own step.
  store:advance(1)
  store:receive("tick", function(s) s.ticks = 2 end)
  store:cancelEffect(1)
  expect(function() store:cancelEffect(1) end).to_error("store:cancelEffect(1): effect 1 is not running (it ended or was cancelled)")
  store:advance(5)
  store:finish()
end)
