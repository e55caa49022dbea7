-- Case study: shared state (FEATURES §3).
-- Shows one state behind two tabs. The Counter tab owns the numbers; the Profile tab's state is
-- *derived* from them through a lens (relua.scope with { get, set }), so both tabs always agree
-- with no synchronising code, and the Profile reducer can only change what the lens exposes.
local relua = require "relua"
local feature, on = relua.feature, relua.on

local function isPrime(n)
  if n <= 1 then return false end
  if n <= 3 then return true end
  for i = 2, math.floor(math.sqrt(n)) do
    if n % i == 0 then return false end
  end
  return true
end

-- The Counter tab: counts presses and tracks the extremes; checks whether the count is prime.
local Counter = feature "Counter" {
  -- alert: nil, or { title = "…" } while the "is prime?" answer is shown
  state = { alert = nil, count = 0, maxCount = 0, minCount = 0, numberOfCounts = 0 },

  actions = { increment = {}, decrement = {}, isPrimeButtonTapped = {}, alertDismissed = {} },

  reduce = on {
    increment = function(s)
      s.count = s.count + 1
      s.numberOfCounts = s.numberOfCounts + 1
      s.maxCount = math.max(s.maxCount, s.count)
    end,
    decrement = function(s)
      s.count = s.count - 1
      s.numberOfCounts = s.numberOfCounts + 1
      s.minCount = math.min(s.minCount, s.count)
    end,
    isPrimeButtonTapped = function(s)
      local title = isPrime(s.count)
        and ("👍 The number %d is prime!"):format(s.count)
        or ("👎 The number %d is not prime :("):format(s.count)
      s.alert = { title = title, buttons = { { label = "OK", action = "alertDismissed" } } }
    end,
    alertDismissed = function(s) s.alert = nil end,
  },

  view = function(s)
    local text = ("%d   [-] [+]   [Is this prime?]"):format(s.count)
    if s.alert then text = text .. "\n┌ " .. s.alert.title .. " [OK]" end
    return text
  end,
}

-- The Profile tab: sees the numbers (and the current tab), and can reset them.
local Profile = feature "Profile" {
  state = { currentTab = "counter", count = 0, maxCount = 0, minCount = 0, numberOfCounts = 0 },

  actions = { resetCounterButtonTapped = {} },

  reduce = on {
    resetCounterButtonTapped = function(s)
      s.currentTab = "counter"
      s.count, s.maxCount, s.minCount, s.numberOfCounts = 0, 0, 0, 0
    end,
  },

  view = function(s)
    return ("Current count: %d\nMax count: %d\nMin count: %d\nTotal number of count events: %d\n[Reset]")
      :format(s.count, s.maxCount, s.minCount, s.numberOfCounts)
  end,
}

-- What the Profile sees of the shared state, and how its changes are written back.
-- Anything the get does not expose (the counter's alert) is out of the Profile's reach, and the
-- set writes back only the fields it names.
local profileLens = {
  get = function(s)
    return {
      currentTab = s.currentTab,
      count = s.counter.count, maxCount = s.counter.maxCount,
      minCount = s.counter.minCount, numberOfCounts = s.counter.numberOfCounts,
    }
  end,
  set = function(s, profile)
    s.currentTab = profile.currentTab
    s.counter.count, s.counter.maxCount = profile.count, profile.maxCount
    s.counter.minCount, s.counter.numberOfCounts = profile.minCount, profile.numberOfCounts
  end,
}

local tabs = { counter = true, profile = true }

local SharedState = feature "SharedState" {
  state = function() return { currentTab = "counter", counter = Counter:initial() } end,

  actions = { selectTab = "string" },

  compose = {
    relua.scope("counter", Counter),
    relua.scope("profile", Profile, profileLens),
  },

  reduce = on {
    selectTab = function(s, tab)
      if not tabs[tab] then error(("selectTab: no tab '%s' (tabs: counter, profile)"):format(tab)) end
      s.currentTab = tab
    end,
  },

  view = function(s)
    local bar = s.currentTab == "counter" and "[Counter] Profile" or "Counter [Profile]"
    local body = s.currentTab == "counter" and Counter.view(s.counter) or Profile.view(profileLens.get(s))
    return bar .. "\n" .. body
  end,
}

SharedState.Counter, SharedState.Profile, SharedState.profileLens, SharedState.isPrime =
  Counter, Profile, profileLens, isPrime
return SharedState
