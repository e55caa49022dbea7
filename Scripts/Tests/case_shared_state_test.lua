local relua = require "relua"
local SharedState = require "Features.CaseStudies.SharedState"

local function alert(title)
  return { title = title, buttons = { { label = "OK", action = "alertDismissed" } } }
end

-- Both tabs hold the shared stats. An expectation may state them in one tab (the other follows
-- from the share); this helper states them in both, which reads as the screens show them.
local function stats(s, count, maxCount, minCount, numberOfCounts)
  for _, tab in ipairs { "counter", "profile" } do
    s[tab].stats = { count = count, maxCount = maxCount, minCount = minCount, numberOfCounts = numberOfCounts }
  end
end

describe("Shared state: counter tab", function()
  it("counts presses and tracks max and min, in both tabs", function()
    local store = relua.TestStore(SharedState)
    store:send("counter.increment", function(s) stats(s, 1, 1, 0, 1) end)
    store:send("counter.decrement", function(s) stats(s, 0, 1, 0, 2) end)
    store:send("counter.decrement", function(s) stats(s, -1, 1, -1, 3) end)
    expect(store:shared(SharedState.Stats)).to_equal({ count = -1, maxCount = 1, minCount = -1, numberOfCounts = 3 })
  end)

  it("says whether the count is prime, in an alert dismissed by alertDismissed", function()
    local store = relua.TestStore(SharedState)
    store:setShared(SharedState.Stats, { count = 3, maxCount = 3, minCount = 0, numberOfCounts = 3 })
    store:send("counter.isPrimeButtonTapped", function(s) s.counter.alert = alert("👍 The number 3 is prime!") end)
    store:send("counter.alertDismissed", function(s) s.counter.alert = nil end)
    store:send("counter.increment", function(s) stats(s, 4, 4, 0, 4) end)
    store:send("counter.isPrimeButtonTapped", function(s) s.counter.alert = alert("👎 The number 4 is not prime :(") end)
    expect(store:view()).to_contain("┌ 👎 The number 4 is not prime :( [OK :counter.alertDismissed]")
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
    store:send("counter.increment", function(s) stats(s, 1, 1, 0, 1) end)
    store:send("counter.increment", function(s) stats(s, 2, 2, 0, 2) end)
    store:send("selectTab", "profile", function(s) s.currentTab = "profile" end)
    expect(store:state("profile.stats")).to_equal({ count = 2, maxCount = 2, minCount = 0, numberOfCounts = 2 })
    expect(store:view()).to_be(
      "[Counter :selectTab \"counter\"] [Profile]\nCurrent count: 2\nMax count: 2\nMin count: 0\nTotal number of count events: 2\n"
      .. "[Reset :profile.resetCounterButtonTapped]")
  end)

  it("reset sets all four numbers to 0 in both tabs and switches to the counter tab", function()
    local store = relua.TestStore(SharedState)
    store:send("selectTab", "profile", function(s) s.currentTab = "profile" end)
    store:setShared(SharedState.Stats, { count = 5, maxCount = 7, minCount = -2, numberOfCounts = 20 })
    expect(store:state("counter.stats.count")).to_be(5)
    store:send("profile.resetCounterButtonTapped", function(s)
      s.currentTab = "counter"
      stats(s, 0, 0, 0, 0)
    end)
    expect(store:shared(SharedState.Stats)).to_equal({ count = 0, maxCount = 0, minCount = 0, numberOfCounts = 0 })
  end)
end)

describe("Shared state: each tab alone", function()
  it("the profile tested alone resets the shared stats", function()
    local store = relua.TestStore(SharedState.Profile)
    store:setShared(SharedState.Stats, { count = 2, maxCount = 2, minCount = 0, numberOfCounts = 2 })
    store:send("resetCounterButtonTapped", function(s)
      s.stats = { count = 0, maxCount = 0, minCount = 0, numberOfCounts = 0 }
    end)
    expect(store:shared(SharedState.Stats).numberOfCounts).to_be(0)
  end)

  it("the counter tested alone writes the shared stats", function()
    local store = relua.TestStore(SharedState.Counter)
    store:send("increment", function(s) s.stats = { count = 1, maxCount = 1, minCount = 0, numberOfCounts = 1 } end)
    expect(store:shared(SharedState.Stats).count).to_be(1)
  end)
end)

describe("Shared state: the profile shares the stats and nothing else", function()
  it("reset leaves the counter's alert alone (the alert is the counter's own state)", function()
    local store = relua.TestStore(SharedState)
    store:setShared(SharedState.Stats, { count = 2, maxCount = 2, minCount = 0, numberOfCounts = 2 })
    store:send("counter.isPrimeButtonTapped", function(s) s.counter.alert = alert("👍 The number 2 is prime!") end)
    store:send("selectTab", "profile", function(s) s.currentTab = "profile" end)
    store:send("profile.resetCounterButtonTapped", function(s)
      s.currentTab = "counter"
      stats(s, 0, 0, 0, 0)
    end)
    expect(store:state().counter.alert).to_equal(alert("👍 The number 2 is prime!"))
  end)

  it("a profile that writes more than the stats changes only its own state", function()
    -- A rogue profile holding the same key: it also writes fields of its own, named as the counter's.
    local Rogue = relua.feature "RogueProfile" {
      state = SharedState.Profile.state,
      shared = { stats = SharedState.Stats },
      actions = { resetCounterButtonTapped = {} },
      reduce = relua.on {
        resetCounterButtonTapped = function(s)
          s.stats.count = 99
          s.alert = { title = "hacked" }
          s.counter = { count = -1 }
        end,
      },
    }
    local Shared = relua.feature "SharedWithRogue" {
      state = function(deps)
        return { currentTab = "counter", counter = SharedState.Counter:initial(deps), profile = Rogue:initial(deps) }
      end,
      compose = {
        relua.scope("counter", SharedState.Counter),
        relua.scope("profile", Rogue),
      },
    }
    local store = relua.TestStore(Shared)
    store:send("profile.resetCounterButtonTapped", function(s)
      s.counter.stats.count, s.profile.stats.count = 99, 99
      s.profile.alert = { title = "hacked" }
      s.profile.counter = { count = -1 }
    end)
    expect(store:state("counter")).to_equal({ stats = { count = 99, maxCount = 0, minCount = 0, numberOfCounts = 0 } })
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
      s.counter.stats.count, s.counter.stats.maxCount = 1, 1
      s.profile.stats.count, s.profile.stats.maxCount = 1, 1
    end)
    expect(ok).to_be(false)
    expect(message).to_contain("numberOfCounts = 0")
    expect(message).to_contain("numberOfCounts = 1")
  end)

  it("a shared change asserted in one tab is expected in the other (as TCA asserts a @Shared once)", function()
    local store = relua.TestStore(SharedState)
    store:send("counter.increment", function(s)
      s.counter.stats = { count = 1, maxCount = 1, minCount = 0, numberOfCounts = 1 }
    end)
    expect(store:state("profile.stats")).to_equal({ count = 1, maxCount = 1, minCount = 0, numberOfCounts = 1 })
  end)
end)
