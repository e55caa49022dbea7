-- Case study: destinations (FEATURES §3).
-- Shows one optional destination that is exactly one of an alert, a counter or an animations
-- screen (relua.presents). What is shown follows from `state.destination` alone.
--  * Presenting gives the destination an identity: its kind. Editing its contents keeps it;
--    `swap` (counter ↔ animations) changes it, which cancels the old screen's effects.
--  * The parent reacts to its child's actions: it dismisses the counter when it goes below 0.
--  * An alert is dismissed automatically after any of its buttons.
--  * A child can dismiss itself from an effect with deps.dismiss().
--  * An action for a destination that is not presented is a runtime warning, and is ignored.
local relua = require "relua"
local ui = relua.ui
local feature, on, Effect = relua.feature, relua.on, relua.Effect

local TIMER = "timer"

-- A counter with a timer (an effect to cancel) and a Done button that closes its own screen.
local Counter = feature "Counter" {
  state = { count = 0, isTimerRunning = false },

  actions = { increment = {}, decrement = {}, toggleTimer = {}, timerTicked = {}, doneButtonTapped = {} },

  reduce = on {
    increment = function(s) s.count = s.count + 1 end,
    decrement = function(s) s.count = s.count - 1 end,
    toggleTimer = function(s, _, deps)
      s.isTimerRunning = not s.isTimerRunning
      if not s.isTimerRunning then return Effect.cancel(TIMER) end
      return Effect.run(function(send)
        while true do
          deps.clock.sleep(1)
          send("timerTicked")
        end
      end):cancellable(TIMER, true)
    end,
    timerTicked = function(s) s.count = s.count + 1 end,
    -- The counter does not know who presented it: dismiss() asks whoever did to close it.
    doneButtonTapped = function(_, _, deps)
      return Effect.run(function() deps.dismiss() end)
    end,
  },

  view = function(s)
    return ui.vstack {
      ui.hstack { ("%d  "):format(s.count), ui.button("-", "decrement"), ui.button("+", "increment") },
      ui.hstack {
        ui.button(s.isTimerRunning and "Stop timer" or "Start timer", "toggleTimer"),
        ui.button("Done", "doneButtonTapped"),
      },
    }
  end,
}

local RAINBOW = { "red", "orange", "yellow", "green", "blue", "indigo", "violet" }

-- A circle that scales and, on "rainbow", cycles through colours once a second.
local Animations = feature "Animations" {
  state = { circleColor = "black", isCircleScaled = false },

  actions = { toggleScale = {}, rainbowButtonTapped = {}, setColor = "string" },

  reduce = on {
    toggleScale = function(s) s.isCircleScaled = not s.isCircleScaled end,
    rainbowButtonTapped = function(_, _, deps)
      return Effect.run(function(send)
        for _, color in ipairs(RAINBOW) do
          send("setColor", color)
          deps.clock.sleep(1)
        end
        send("setColor", "black")
      end):cancellable("rainbow", true)
    end,
    setColor = function(s, color) s.circleColor = color end,
  },

  view = function(s)
    return ui.hstack {
      ("( %s circle%s )  "):format(s.circleColor, s.isCircleScaled and ", scaled" or ""),
      ui.button("Scale", "toggleScale"),
      ui.button("Rainbow", "rainbowButtonTapped"),
    }
  end,
}

local Destinations = feature "Destinations" {
  -- destination: nil, or exactly one of { alert = … }, { counter = … }, { animations = … }
  -- answer: the last alert button tapped ("confirm" or "cancel"), nil before any
  state = { destination = nil, answer = nil },

  actions = { showAlert = {}, showCounter = {}, showAnimations = {}, swap = {} },

  compose = {
    relua.presents("destination", {
      alert = relua.alert { confirm = {}, cancel = {} },
      counter = Counter,
      animations = Animations,
    }),
  },

  reduce = on {
    showAlert = function(s)
      s.destination = { alert = {
        title = "Alert!",
        message = "This is an alert",
        buttons = { { label = "OK", action = "confirm" }, { label = "Cancel", action = "cancel" } },
      } }
    end,
    showCounter = function(s) s.destination = { counter = Counter:initial() } end,
    showAnimations = function(s) s.destination = { animations = Animations:initial() } end,

    -- Changing the kind gives the destination a new identity: the old one's effects stop.
    swap = function(s)
      local d = s.destination
      if d == nil or d.alert ~= nil then return end
      if d.counter ~= nil then
        s.destination = { animations = Animations:initial() }
      else
        s.destination = { counter = Counter:initial() }
      end
    end,

    -- The alert's buttons come to the parent; the alert then closes by itself.
    ["destination.alert.confirm"] = function(s) s.answer = "confirm" end,
    ["destination.alert.cancel"] = function(s) s.answer = "cancel" end,

    -- The child ran first; the parent sees the count it left and may close it.
    ["destination.counter.decrement"] = function(s)
      if s.destination.counter.count < 0 then s.destination = nil end
    end,
  },

  -- The buttons that present; a presented counter or animations is its own screen (drawn from
  -- state), shown here too under a Swap button (scoped: its buttons send destination.counter.…).
  view = function(s)
    local d = s.destination
    if d == nil or d.alert then
      return ui.hstack {
        ui.button("Alert", "showAlert"), ui.button("Counter", "showCounter"), ui.button("Animations", "showAnimations"),
        s.answer and ("  last answer: " .. s.answer) or false,
      }
    end
    local kind, child = "counter", Counter
    if d.animations then kind, child = "animations", Animations end
    return ui.vstack {
      ui.hstack { kind == "counter" and "Counter ⇄" or "Animations ⇄", ui.button("Swap", "swap") },
      ui.scope("destination", ui.scope(kind, child.view(d[kind]))),
    }
  end,
}

Destinations.Counter, Destinations.Animations = Counter, Animations
return Destinations
