-- Case study: optional state (FEATURES §3).
-- Shows relua.optional: a child feature that exists only while its state is non-nil.
-- `toggleCounter` creates the counter (count 0) or removes it. While it is nil, a counter action
-- is not a crash: the engine reports a runtime warning naming the action and ignores it.
local relua = require "relua"
local ui = relua.ui
local feature, on = relua.feature, relua.on

local Counter = require "Features.CaseStudies.Counter"

local OptionalState = feature "OptionalState" {
  -- counter: Counter state, or nil while the counter is hidden
  state = { counter = nil },

  actions = { toggleCounter = {} },

  compose = { relua.optional("counter", Counter) },

  reduce = on {
    toggleCounter = function(s)
      if s.counter == nil then s.counter = Counter:initial() else s.counter = nil end
    end,
  },

  view = function(s)
    return ui.vstack {
      ui.button("Toggle counter state", "toggleCounter"),
      s.counter == nil and "`counter` is nil"
        or ui.hstack { "`counter` is non-nil:", ui.scope("counter", Counter.view(s.counter)) },
    }
  end,
}

OptionalState.Counter = Counter
return OptionalState
