local relua = require "relua"
local SharedState = require "Features.CaseStudies.SharedState"

local function alert(title)
  return { title = title, buttons = { { label = "OK", action = "alertDismissed" } } }
end

describe("Shared state: counter tab", function()
  it("counts presses and tracks max and min", function()
    local store = relua.TestStore(SharedState)
    store:send("counter.increment", function(s)
      s.counter.count, s.counter.numberOfCounts, s.counter.maxCount = 1, 1, 1
    end)
    store:send("counter.decrement", function(s) s.counter.count, s.counter.numberOfCounts = 0, 2 end)
    store:send("counter.decrement", function(s)
      s.counter.count, s.counter.numberOfCounts, s.counter.minCount = -1, 3, -1
    end)
  end)

  it("says whether the count is prime, in an alert dismissed by alertDismissed", function()
    local store = relua.TestStore(SharedState, { state = { currentTab = "counter", counter = {
      count = 3, maxCount = 3, minCount = 0, numberOfCounts = 3 } } })
    store:send("counter.isPrimeButtonTapped", function(s) s.counter.alert = alert("👍 The number 3 is prime!") end)
    store:send("counter.alertDismissed", function(s) s.counter.alert = nil end)
    store:send("counter.increment", function(s)
      s.counter.count, s.counter.numberOfCounts, s.counter.maxCount = 4, 4, 4
    end)
    store:send("counter.isPrimeButtonTapped", function(s) s.counter.alert = alert("👎 The number 4 is not prime :(") end)
    expect(SharedState.view(store:state())).to_contain("┌ 👎 The number 4 is not prime :( [OK]")
    store:send("counter.alertDismissed", function(s) s.counter.alert = nil end)
  end)

  it("knows its primes", function()
    local primes = {}
    for n = -2, 20 do if SharedState.isPrime(n) then primes[#primes + 1] = n end end
    expect(primes).to_equal({ 2, 3, 5, 7, 11, 13, 17, 19 })
  end)
end)

describe("Shared state: profile tab", function()
  it("selectTab switches tabs", function()
    local store = relua.TestStore(SharedState)
    store:send("selectTab", "profile", function(s) s.currentTab = "profile" end)
    store:send("selectTab", "counter", function(s) s.currentTab = "counter" end)
  end)

  it("always agrees with the counter, with no synchronising code", function()
    local store = relua.TestStore(SharedState)
    store:send("counter.increment", function(s)
      s.counter.count, s.counter.numberOfCounts, s.counter.maxCount = 1, 1, 1
    end)
    store:send("counter.increment", function(s)
      s.counter.count, s.counter.numberOfCounts, s.counter.maxCount = 2, 2, 2
    end)
    store:send("selectTab", "profile", function(s) s.currentTab = "profile" end)
    expect(SharedState.profileLens.get(store:state()))
      .to_equal({ currentTab = "profile", count = 2, maxCount = 2, minCount = 0, numberOfCounts = 2 })
    expect(SharedState.view(store:state())).to_be(
      "Counter [Profile]\nCurrent count: 2\nMax count: 2\nMin count: 0\nTotal number of count events: 2\n[Reset]")
  end)

  it("reset sets all four numbers to 0 and switches to the counter tab", function()
    local store = relua.TestStore(SharedState, { state = { currentTab = "profile", counter = {
      count = 5, maxCount = 7, minCount = -2, numberOfCounts = 20 } } })
    store:send("profile.resetCounterButtonTapped", function(s)
      s.currentTab = "counter"
      s.counter = { count = 0, maxCount = 0, minCount = 0, numberOfCounts = 0 }
    end)
  end)
end)

describe("Shared state: the profile can only change what its lens exposes", function()
  it("reset leaves the counter's alert alone (the lens does not expose it)", function()
    local store = relua.TestStore(SharedState, { state = { currentTab = "profile", counter = {
      count = 2, maxCount = 2, minCount = 0, numberOfCounts = 2, alert = alert("👍 The number 2 is prime!") } } })
    store:send("profile.resetCounterButtonTapped", function(s)
      s.currentTab = "counter"
      s.counter.count, s.counter.maxCount, s.counter.numberOfCounts = 0, 0, 0
    end)
    expect(store:state().counter.alert).to_equal(alert("👍 The number 2 is prime!"))
  end)

  it("a profile that writes more than the lens names changes nothing else", function()
    -- A rogue profile over the same lens: it tries to add a field and to reach the alert.
    local Rogue = relua.feature "RogueProfile" {
      state = SharedState.Profile.state,
      actions = { resetCounterButtonTapped = {} },
      reduce = relua.on {
        resetCounterButtonTapped = function(s)
          s.count = 99
          s.alert = { title = "hacked" }
          s.counter = { count = -1 }
          s.secret = "x"
        end,
      },
    }
    local Shared = relua.feature "SharedWithRogue" {
      state = SharedState.state,
      actions = {},
      compose = {
        relua.scope("counter", SharedState.Counter),
        relua.scope("profile", Rogue, SharedState.profileLens),
      },
    }
    local store = relua.TestStore(Shared)
    store:send("profile.resetCounterButtonTapped", function(s) s.counter.count = 99 end)
    expect(store:state()).to_equal({
      currentTab = "counter", counter = { count = 99, maxCount = 0, minCount = 0, numberOfCounts = 0 } })
  end)

  it("the profile's actions are only its own", function()
    local store = relua.TestStore(SharedState)
    expect(function() store:send("profile.increment") end)
      .to_error("Profile has no action 'increment' (in 'profile.increment'); it accepts: resetCounterButtonTapped")
  end)
end)

describe("Shared state: failure paths", function()
  it("an unknown tab raises and leaves the state unchanged", function()
    local store = relua.TestStore(SharedState)
    expect(function() store:send("selectTab", "settings") end).to_error("selectTab: no tab 'settings'")
    expect(store:state().currentTab).to_be("counter")
  end)

  it("forgetting the numberOfCounts in an expectation fails with a diff", function()
    local store = relua.TestStore(SharedState)
    local ok, message = pcall(store.send, store, "counter.increment", function(s)
      s.counter.count, s.counter.maxCount = 1, 1
    end)
    expect(ok).to_be(false)
    expect(message).to_contain("numberOfCounts = 0")
    expect(message).to_contain("numberOfCounts = 1")
  end)
end)
