-- Counter: one round of the guessing game (FEATURES §1).
-- The player moves a guess up and down (or types it) until it matches a secret in -100…100;
-- `playNext` starts a new round with a new id and a new secret.
local relua = require "relua"
local feature, on, ui = relua.feature, relua.on, relua.ui

local Counter = feature "Counter" {
  state = function(deps)
    return { id = deps.uuid(), secret = deps.random(-100, 100), count = 0 }
  end,

  actions = { increment = {}, decrement = {}, setCount = "integer", playNext = {} },

  reduce = on {
    increment = function(s) s.count = s.count + 1 end,
    decrement = function(s) s.count = s.count - 1 end,
    setCount = function(s, n) s.count = n end,
    playNext = function(s, _, deps)
      s.id, s.secret, s.count = deps.uuid(), deps.random(-100, 100), 0
    end,
  },

  view = function(s)
    local feedback = s.count < s.secret and "higher" or s.count > s.secret and "lower" or "✓ correct"
    return ui.vstack {
      ui.text(("Guess: %d   (%s)"):format(s.count, feedback)),
      ui.hstack { ui.button("+", "increment"), ui.button("-", "decrement"), ui.button("Next", "playNext") },
    }
  end,
}

-- "higher", "lower" or "correct" for a counter state.
function Counter.feedback(s)
  if s.count < s.secret then return "higher" elseif s.count > s.secret then return "lower" end
  return "correct"
end

return Counter
