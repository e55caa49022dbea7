-- Case study: optional state (FEATURES §3).
-- Shows relua.optional: a child feature that exists only while its state is non-nil.
-- `toggleCounter` creates the counter (count 0) or removes it. While it is nil, a counter action
-- is not a crash: the engine reports a runtime warning naming the action and ignores it.
local relua = require "relua"
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
    if s.counter == nil then return "[Toggle counter state]\n`counter` is nil" end
    return "[Toggle counter state]\n`counter` is non-nil: " .. Counter.view(s.counter)
  end,
}

OptionalState.Counter = Counter
return OptionalState
