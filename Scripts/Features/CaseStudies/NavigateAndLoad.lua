-- Case study: navigate and load (FEATURES §3).
-- Shows navigating first and loading after: `setNavigation(true)` navigates at once
-- (isNavigationActive), and the destination shows a spinner until, 1 s later (deps.clock), its
-- counter is loaded. `setNavigation(false)` goes back, drops the counter and cancels a load still
-- pending, so a late load can never reopen a screen the user has left.
local relua = require "relua"
local ui = relua.ui
local feature, on, Effect = relua.feature, relua.on, relua.Effect

local Counter = require "Features.CaseStudies.Counter"

local LOAD = "load"  -- the cancellation id of the pending load

local NavigateAndLoad = feature "NavigateAndLoad" {
  -- isNavigationActive: the destination is shown; optionalCounter: its content once loaded (or nil)
  state = { isNavigationActive = false, optionalCounter = nil },

  actions = { setNavigation = "boolean", setNavigationIsActiveDelayCompleted = {} },

  compose = { relua.optional("optionalCounter", Counter) },

  reduce = on {
    setNavigation = function(s, isActive, deps)
      if isActive then
        s.isNavigationActive = true
        return Effect.run(function(send)
          deps.clock.sleep(1)
          send("setNavigationIsActiveDelayCompleted")
        end):cancellable(LOAD, true)
      end
      s.isNavigationActive = false
      s.optionalCounter = nil
      return Effect.cancel(LOAD)
    end,

    setNavigationIsActiveDelayCompleted = function(s)
      s.optionalCounter = Counter:initial()
    end,
  },

  -- UI = F(state): the root, and when navigated the destination (spinner until loaded).
  view = function(s)
    if not s.isNavigationActive then return ui.link("Load optional counter", "setNavigation", true) end
    return ui.hstack {
      ui.button("‹ Back", "setNavigation", false), "|",
      s.optionalCounter == nil and "(loading…)" or ui.scope("optionalCounter", Counter.view(s.optionalCounter)),
    }
  end,
}

NavigateAndLoad.Counter = Counter
return NavigateAndLoad
