-- Case study: shared state (TCA's "Shared state", in memory).
-- Two tabs hold the same stats: the Counter tab changes them, the Profile tab shows and resets
-- them. Each tab declares `shared = { stats = Stats }`, a field bound to one in-memory key, so a
-- write through either holder is seen by the other at once — in the same send, with no parent
-- copying anything — and each tab works, and is tested, alone.
--  * A reducer writes a share as any state field (`s.stats.count = …`); the store keeps every
--    holder in step, and a failed send gives the share back.
--  * The shared value is state: diffs, :undo and a test store's exhaustive steps show every holder.
--  * `relua.inMemory` lives as long as the runtime (one REPL session); each test store starts fresh.
local relua = require "relua"
local ui = relua.ui
local feature, on = relua.feature, relua.on

-- The key both tabs hold: count, its extremes, and how many times it changed.
local Stats = relua.inMemory("stats")

local function initialStats() return { count = 0, maxCount = 0, minCount = 0, numberOfCounts = 0 } end

local function isPrime(n)
  if n <= 1 then return false end
  if n <= 3 then return true end
  for i = 2, math.floor(math.sqrt(n)) do
    if n % i == 0 then return false end
  end
  return true
end

-- The Counter tab: counts presses into the shared stats; checks whether the count is prime.
local Counter = feature "Counter" {
  -- alert: nil, or { title = "…" } while the "is prime?" answer is shown (the Counter's own)
  state = function() return { alert = nil, stats = initialStats() } end,

  shared = { stats = Stats },

  actions = { increment = {}, decrement = {}, isPrimeButtonTapped = {}, alertDismissed = {} },

  reduce = on {
    increment = function(s)
      local stats = s.stats
      stats.count = stats.count + 1
      stats.numberOfCounts = stats.numberOfCounts + 1
      stats.maxCount = math.max(stats.maxCount, stats.count)
    end,
    decrement = function(s)
      local stats = s.stats
      stats.count = stats.count - 1
      stats.numberOfCounts = stats.numberOfCounts + 1
      stats.minCount = math.min(stats.minCount, stats.count)
    end,
    isPrimeButtonTapped = function(s)
      local count = s.stats.count
      local title = isPrime(count)
        and ("👍 The number %d is prime!"):format(count)
        or ("👎 The number %d is not prime :("):format(count)
      s.alert = { title = title, buttons = { { label = "OK", action = "alertDismissed" } } }
    end,
    alertDismissed = function(s) s.alert = nil end,
  },

  view = function(s)
    return ui.vstack {
      ui.hstack {
        ("%d  "):format(s.stats.count), ui.button("-", "decrement"), ui.button("+", "increment"),
        ui.button("Is this prime?", "isPrimeButtonTapped"),
      },
      s.alert and ui.hstack { "┌ " .. s.alert.title, ui.button("OK", "alertDismissed") } or false,
    }
  end,
}

-- The Profile tab: shows the same stats, and resets them.
local Profile = feature "Profile" {
  state = function() return { stats = initialStats() } end,

  shared = { stats = Stats },

  actions = { resetCounterButtonTapped = {} },

  reduce = on {
    resetCounterButtonTapped = function(s) s.stats = initialStats() end,
  },

  view = function(s)
    local stats = s.stats
    return ui.vstack {
      ui.text(("Current count: %d\nMax count: %d\nMin count: %d\nTotal number of count events: %d")
        :format(stats.count, stats.maxCount, stats.minCount, stats.numberOfCounts)),
      ui.button("Reset", "resetCounterButtonTapped"),
    }
  end,
}

local tabs = { counter = true, profile = true }

local SharedState = feature "SharedState" {
  state = function(deps)
    return { currentTab = "counter", counter = Counter:initial(deps), profile = Profile:initial(deps) }
  end,

  actions = { selectTab = "string" },

  compose = {
    relua.scope("counter", Counter),
    relua.scope("profile", Profile),
  },

  reduce = on {
    selectTab = function(s, tab)
      if not tabs[tab] then error(("selectTab: no tab '%s' (tabs: counter, profile)"):format(tab)) end
      s.currentTab = tab
    end,
    -- The Profile reset the stats (the Counter sees that already); the tab bar goes back too.
    ["profile.resetCounterButtonTapped"] = function(s) s.currentTab = "counter" end,
  },

  -- The tab bar as buttons, then the current tab's view (scoped: its actions are the tab's).
  view = function(s)
    return ui.vstack {
      ui.hstack {
        s.currentTab == "counter" and "[Counter]" or ui.button("Counter", "selectTab", "counter"),
        s.currentTab == "profile" and "[Profile]" or ui.button("Profile", "selectTab", "profile"),
      },
      s.currentTab == "counter" and ui.scope("counter", Counter.view(s.counter))
        or ui.scope("profile", Profile.view(s.profile)),
    }
  end,
}

SharedState.Counter, SharedState.Profile, SharedState.Stats, SharedState.isPrime =
  Counter, Profile, Stats, isPrime
return SharedState
