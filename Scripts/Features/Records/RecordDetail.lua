-- The records app's detail screen, pushed on the list's stack. It holds one element of the
-- shared list — `Records:element()`, the record whose id is its own record's id — so a change
-- here (a favourite, a saved edit) is the list's change, and the file's, at once.
-- While it is shown a reading clock counts the seconds it has been viewed: a long-running
-- effect of the screen, cancelled when the screen is popped.
local relua = require "relua"
local ui = relua.ui
local RecordForm = require "Features.Records.RecordForm"
local feature, on, Effect = relua.feature, relua.on, relua.Effect

-- The records, kept in records.json (beside the script in `relua repl`; in memory in a test store).
local Records = relua.fileStorage("records.json")

local CLOCK = "readingClock"

local RecordDetail = feature "RecordDetail" {
  -- form: nil, or the edit sheet's draft
  state = { record = { id = 0, title = "", notes = "", favourite = false }, secondsViewed = 0, form = nil },

  shared = { record = Records:element() },

  actions = { onAppear = {}, timerTicked = {}, toggleFavourite = {}, edit = {} },

  compose = { relua.presents("form", RecordForm) },

  reduce = on {
    -- The list sends it as it pushes the screen (a view's .task in TCA).
    onAppear = function(_, _, deps)
      return Effect.run(function(send)
        for _ in deps.clock.timer(1) do send("timerTicked") end
      end):cancellable(CLOCK, true)
    end,
    timerTicked = function(s) s.secondsViewed = s.secondsViewed + 1 end,
    toggleFavourite = function(s) s.record.favourite = not s.record.favourite end,
    edit = function(s) s.form = RecordForm.draft(s.record) end,
    -- (done: the sheet checked the draft first; a draft with a problem stays open.)
    ["form.done"] = function(s)
      if s.form.problem then return end
      s.record = RecordForm.record(s.form, s.record.id)
      s.form = nil
    end,
    ["form.discard"] = function(s) s.form = nil end,
  },

  view = function(s)
    local record = s.record
    return ui.vstack {
      record.title .. (record.favourite and "  ★" or ""),
      record.notes ~= "" and "  " .. record.notes or false,
      ("  Viewed for %d:%02d"):format(s.secondsViewed // 60, s.secondsViewed % 60),
      ui.hstack {
        ui.button(record.favourite and "Unfavourite" or "Favourite", "toggleFavourite"),
        ui.link("Edit", "edit"),
      },
    }
  end,
}

-- The screen's state when it is pushed for a record.
function RecordDetail.showing(record)
  return { record = record, secondsViewed = 0 }
end

RecordDetail.Records = Records
return RecordDetail
