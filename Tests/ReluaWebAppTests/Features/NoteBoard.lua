-- WebAppRedrawTests' feature: a board (the root) with a count, and a note presented over it as a
-- sheet whose bar (Done) the board gives only when `withBar` is on.
local relua = require "relua"
local ui = relua.ui
local feature, on = relua.feature, relua.on

local Note = feature "Note" {
  state = { text = "" },
  actions = { setText = "string" },
  reduce = on { setText = function(s, text) s.text = text end },
  view = function(s) return ui.vstack { "Note: " .. s.text } end,
}

return feature "NoteBoard" {
  state = { count = 0, withBar = false, destination = nil },
  actions = { increment = {}, toggleBar = {}, openNote = {}, done = {} },
  compose = { relua.presents("destination", { note = Note }) },
  reduce = on {
    increment = function(s) s.count = s.count + 1 end,
    toggleBar = function(s) s.withBar = not s.withBar end,
    openNote = function(s) s.destination = { note = { text = "" } } end,
    done = function(s) s.destination = nil end,
  },
  view = function(s)
    return ui.vstack {
      "Count: " .. s.count,
      ui.button("+", "increment"),
      s.withBar and s.destination ~= nil and ui.toolbar("destination.note", { ui.button("Done", "done") }),
    }
  end,
}
