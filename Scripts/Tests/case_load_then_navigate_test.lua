local relua = require "relua"
local LoadThenNavigate = require "Features.CaseStudies.LoadThenNavigate"


local function newStore()
  return relua.TestStore(LoadThenNavigate, { deps = { clock = "test" } })
end

describe("Load then navigate", function()
  it("shows an activity indicator, and navigates only once the counter is loaded", function()
    local store = newStore()
    store:send("setNavigation", true, function(s) s.isActivityIndicatorVisible = true end)
    expect(LoadThenNavigate.isNavigationActive(store:state())).to_be(false)
    expect(store:view()).to_be("[Load optional counter › :setNavigation true]  (loading…)")
    store:advance(1)
    store:receive("setNavigationIsActiveDelayCompleted", function(s)
      s.isActivityIndicatorVisible = false
      s.optionalCounter = { count = 0 }
    end)
    expect(LoadThenNavigate.isNavigationActive(store:state())).to_be(true)
    store:send("optionalCounter.decrement", function(s) s.optionalCounter.count = -1 end)
    expect(store:view()).to_be("[‹ Back :setNavigation false] | -1   [- :optionalCounter.decrement] [+ :optionalCounter.increment]")
    store:send("setNavigation", false, function(s) s.optionalCounter = nil end)
    expect(LoadThenNavigate.isNavigationActive(store:state())).to_be(false)
    store:finish()
  end)

  it("the same state always gives the same screen (deep link into the counter)", function()
    local store = relua.TestStore(LoadThenNavigate, { state = { optionalCounter = { count = 7 } }, deps = { clock = "test" } })
    expect(LoadThenNavigate.isNavigationActive(store:state())).to_be(true)
    expect(store:view()).to_be("[‹ Back :setNavigation false] | 7   [- :optionalCounter.decrement] [+ :optionalCounter.increment]")
  end)
end)

describe("Load then navigate: failure paths", function()
  it("cancelling while loading hides the indicator and never navigates", function()
    local store = newStore()
    store:send("setNavigation", true, function(s) s.isActivityIndicatorVisible = true end)
    store:advance(0.5)
    store:send("setNavigation", false, function(s) s.isActivityIndicatorVisible = false end)
    store:advance(1)
    store:finish()
    expect(LoadThenNavigate.isNavigationActive(store:state())).to_be(false)
  end)

  it("a test that forgets the indicator fails with a diff", function()
    local store = newStore()
    local ok, message = pcall(store.send, store, "setNavigation", true)
    expect(ok).to_be(false)
    expect(message).to_contain("isActivityIndicatorVisible = true")
    store:send("setNavigation", false, function(s) s.isActivityIndicatorVisible = false end)
  end)
end)
