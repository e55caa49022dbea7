-- Case study: a navigation stack (FEATURES §3).
-- Shows relua.stack: `path` is a stack of detail screens, each element `{ id = n, detail = … }`.
-- Ids count from 0 (one more than the largest in the stack), so tests can name them.
--  * Push with relua.push(s.path, { detail = … }).
--  * Element actions carry the element's stack id: "path[id=1].detail.increment"; a parent handler
--    for "path.detail.goDeeper" gets that id as its 4th argument.
--  * "path.popFrom" (payload: an id) removes that element and all after it; their effects stop.
--  * An element can pop itself from an effect with deps.dismiss().
local relua = require "relua"
local ui = relua.ui
local feature, on, Effect = relua.feature, relua.on, relua.Effect

-- One screen of the stack: a counter with a timer, that can ask for a deeper screen or close itself.
local Detail = feature "Detail" {
  state = { level = 1, count = 0, isTimerRunning = false },

  actions = {
    increment = {}, decrement = {}, startTimer = {}, timerTicked = {},
    goDeeper = {},            -- the parent pushes the next level
    closeButtonTapped = {},   -- the screen pops itself
  },

  reduce = on {
    increment = function(s) s.count = s.count + 1 end,
    decrement = function(s) s.count = s.count - 1 end,
    startTimer = function(s, _, deps)
      s.isTimerRunning = true
      return Effect.run(function(send)
        while true do
          deps.clock.sleep(1)
          send("timerTicked")
        end
      end):cancellable("timer", true)
    end,
    timerTicked = function(s) s.count = s.count + 1 end,
    closeButtonTapped = function(_, _, deps)
      return Effect.run(function() deps.dismiss() end)
    end,
  },

  view = function(s)
    return ui.vstack {
      ui.hstack {
        ("Level %d: %d  "):format(s.level, s.count), ui.button("-", "decrement"), ui.button("+", "increment"),
      },
      ui.hstack {
        ui.button("Timer", "startTimer"), ui.button("Go deeper", "goDeeper"), ui.button("Close", "closeButtonTapped"),
      },
    }
  end,
}

local function detail(level) return { detail = { level = level, count = 0, isTimerRunning = false } } end

local Stack = feature "Stack" {
  -- path: the pushed screens, bottom first
  state = { path = {} },

  actions = { pushDetail = {}, popToRoot = {} },

  compose = { relua.stack("path", { detail = Detail }) },

  reduce = on {
    pushDetail = function(s) relua.push(s.path, detail(1)) end,
    popToRoot = function(s) s.path = {} end,
    -- The element ran first; `id` is its stack id.
    ["path.detail.goDeeper"] = function(s, _, _, id)
      local level = 1
      for _, element in ipairs(s.path) do
        if element.id == id then level = element.detail.level + 1 end
      end
      relua.push(s.path, detail(level))
    end,
  },

  -- The root; the pushed screens are drawn from state (the top one is the screen shown).
  view = function(s)
    if #s.path == 0 then return ui.hstack { "Root  ", ui.link("Push detail", "pushDetail") } end
    return ui.hstack { ("Root › %d screen(s)  "):format(#s.path), ui.button("Pop to root", "popToRoot") }
  end,
}

Stack.Detail = Detail
return Stack
