-- Case study: timers (TCA's "Timers"). A timer is a stream of ticks on the store's clock,
-- iterated inside an effect: `for _ in deps.clock.timer(1) do send("timerTicked") end`. Toggling
-- starts it, or cancels the one running (cancelInFlight); leaving the screen cancels it.
local relua = require "relua"
local ui = relua.ui
local feature, on, Effect = relua.feature, relua.on, relua.Effect

local TIMER = "timer"

return feature "Timers" {
  state = { isTimerActive = false, secondsElapsed = 0 },

  actions = { onDisappear = {}, timerTicked = {}, toggleTimerButtonTapped = {} },

  reduce = on {
    onDisappear = function() return Effect.cancel(TIMER) end,
    timerTicked = function(s) s.secondsElapsed = s.secondsElapsed + 1 end,
    toggleTimerButtonTapped = function(s, _, deps)
      s.isTimerActive = not s.isTimerActive
      local isTimerActive = s.isTimerActive
      return Effect.run(function(send)
        if not isTimerActive then return end
        for _ in deps.clock.timer(1) do send("timerTicked") end
      end):cancellable(TIMER, true)
    end,
  },

  view = function(s)
    return ui.hstack {
      ("%02d:%02d  "):format(s.secondsElapsed // 60, s.secondsElapsed % 60),
      ui.button(s.isTimerActive and "Stop" or "Start", "toggleTimerButtonTapped"),
    }
  end,
}
