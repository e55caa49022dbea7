-- Case study: load then navigate (FEATURES §3).
-- Shows loading first and navigating after: `setNavigation(true)` shows an activity indicator on the
-- current screen; 1 s later (deps.clock) the counter is loaded and only then the destination
-- appears. Navigation is derived from state: the destination is shown exactly when optionalCounter
-- is non-nil. `setNavigation(false)` goes back (and cancels a load still pending).
local relua = require "relua"
local ui = relua.ui
local feature, on, Effect = relua.feature, relua.on, relua.Effect

local Counter = require "Features.CaseStudies.Counter"

local LOAD = "load"

local LoadThenNavigate = feature "LoadThenNavigate" {
  state = { isActivityIndicatorVisible = false, optionalCounter = nil },

  actions = { setNavigation = "boolean", setNavigationIsActiveDelayCompleted = {} },

  compose = { relua.optional("optionalCounter", Counter) },

  reduce = on {
    setNavigation = function(s, isActive, deps)
      if isActive then
        s.isActivityIndicatorVisible = true
        return Effect.run(function(send)
          deps.clock.sleep(1)
          send("setNavigationIsActiveDelayCompleted")
        end):cancellable(LOAD, true)
      end
      s.isActivityIndicatorVisible = false
      s.optionalCounter = nil
      return Effect.cancel(LOAD)
    end,

    setNavigationIsActiveDelayCompleted = function(s)
      s.isActivityIndicatorVisible = false
      s.optionalCounter = Counter:initial()
    end,
  },

  view = function(s)
    if s.optionalCounter ~= nil then
      return ui.hstack {
        ui.button("‹ Back", "setNavigation", false), "|", ui.scope("optionalCounter", Counter.view(s.optionalCounter)),
      }
    end
    return ui.hstack {
      ui.link("Load optional counter", "setNavigation", true),
      s.isActivityIndicatorVisible and " (loading…)" or false,
    }
  end,
}

-- Whether the destination is on screen: derived, never stored.
function LoadThenNavigate.isNavigationActive(s) return s.optionalCounter ~= nil end

LoadThenNavigate.Counter = Counter
return LoadThenNavigate
