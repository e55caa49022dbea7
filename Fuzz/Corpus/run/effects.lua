local relua = require "relua"
local Effect = relua.Effect
local Timer = relua.feature "Timer" {
  state = { ticks = 0 },
  actions = { start = {}, tick = {}, stop = {}, twice = {} },
  reduce = relua.on {
    start = function(s, _, deps)
      return Effect.run(function(send)
        for _ = 1, 3 do deps.clock.sleep(0.01) send("tick") end
      end):cancellable("timer", true)
    end,
    tick = function(s) s.ticks = s.ticks + 1 end,
    stop = function() return Effect.cancel("timer") end,
    twice = function() return Effect.merge(Effect.send("tick"), Effect.send("tick")):concatenate(Effect.none) end,
  },
}
local store = relua.Store(Timer, { deps = { clock = "immediate" } })
store:send("start")
store:send("twice")
store:wait()
print(store:state().ticks)
store:send("start")
store:send("stop")
