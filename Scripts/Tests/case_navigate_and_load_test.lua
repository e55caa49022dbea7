local relua = require "relua"
local NavigateAndLoad = require "Features.CaseStudies.NavigateAndLoad"


local function newStore()
  return relua.TestStore(NavigateAndLoad, { deps = { clock = "test" } })
end

describe("Navigate and load", function()
  it("navigates at once, shows a spinner, and loads the counter after 1 s", function()
    local store = newStore()
    store:send("setNavigation", true, function(s) s.isNavigationActive = true end)
    expect(store:view()).to_contain("loading")
    store:advance(0.9)
    store:advance(0.1)
    store:receive("setNavigationIsActiveDelayCompleted", function(s) s.optionalCounter = { count = 0 } end)
    store:send("optionalCounter.increment", function(s) s.optionalCounter.count = 1 end)
    expect(store:view()).to_be("[‹ Back :setNavigation false] | 1   [- :optionalCounter.decrement] [+ :optionalCounter.increment]")
    store:send("setNavigation", false, function(s)
      s.isNavigationActive = false
      s.optionalCounter = nil
    end)
    store:finish()
  end)

  it("going back before the load finishes cancels it", function()
    local store = newStore()
    store:send("setNavigation", true, function(s) s.isNavigationActive = true end)
    store:advance(0.5)
    store:send("setNavigation", false, function(s) s.isNavigationActive = false end)
    store:advance(1)  -- nothing arrives: the pending load was cancelled
    store:finish()
    expect(store:state()).to_equal({ isNavigationActive = false })
  end)

  it("navigating again restarts the load (only one load arrives)", function()
    local store = newStore()
    store:send("setNavigation", true, function(s) s.isNavigationActive = true end)
    store:advance(0.5)
    store:send("setNavigation", true)  -- already active: state unchanged, the first load is cancelled
    store:advance(0.5)
    store:advance(0.5)
    store:receive("setNavigationIsActiveDelayCompleted", function(s) s.optionalCounter = { count = 0 } end)
    store:advance(2)
    store:finish()
  end)
end)

describe("Navigate and load: failure paths", function()
  it("a load that arrives unasserted fails the next send", function()
    local store = newStore()
    store:send("setNavigation", true, function(s) s.isNavigationActive = true end)
    store:advance(1)
    expect(function() store:send("setNavigation", false) end).to_error("Must handle 1 received action")
    store:skipReceivedActions()
    store:finish()
  end)

  it("setNavigation needs a boolean", function()
    local store = newStore()
    expect(function() store:send("setNavigation", 1) end)
      .to_error("action 'setNavigation' of NavigateAndLoad: expected boolean, got")
  end)
end)
