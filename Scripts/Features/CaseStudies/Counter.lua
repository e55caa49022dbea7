-- The small counter the optional-state and navigation case studies present (FEATURES §3).
local relua = require "relua"
local ui = relua.ui
local feature, on = relua.feature, relua.on

return feature "Counter" {
  state = { count = 0 },
  actions = { increment = {}, decrement = {} },
  reduce = on {
    increment = function(s) s.count = s.count + 1 end,
    decrement = function(s) s.count = s.count - 1 end,
  },
  view = function(s)
    return ui.hstack { ("%d  "):format(s.count), ui.button("-", "decrement"), ui.button("+", "increment") }
  end,
}
