-- The records app's edit sheet: a draft of a record, edited field by field (bindings). Nothing
-- here is shared: the draft is the sheet's own until whoever presented it saves it (into the
-- shared list, or the shared element of a detail screen) or drops it.
local relua = require "relua"
local ui = relua.ui
local feature, on = relua.feature, relua.on

local function trimmed(text) return (text:gsub("^%s+", ""):gsub("%s+$", "")) end

local RecordForm = feature "RecordForm" {
  -- heading: "New record" or "Edit record"; problem: nil, or why the draft cannot be saved
  state = { heading = "New record", title = "", notes = "", favourite = false, problem = nil },

  -- :binding.title "Dune", :binding.notes "…", :binding.favourite true
  bindable = { "title", "notes", "favourite" },

  -- done (save the draft) and discard are the presenter's to carry out; the sheet only checks
  -- the draft first. (`save` and `cancel` would do too: `:save` sends a screen's own action in the
  -- REPL, whose command is then `::save FILE`.)
  actions = { done = {}, discard = {} },

  reduce = on {
    done = function(s)
      s.title = trimmed(s.title)
      s.problem = s.title == "" and "A record needs a title." or nil
    end,
  },

  -- The fields, bound; done and discard are the sheet's buttons.
  view = function(s)
    return ui.vstack {
      ui.section(s.heading, {
        ui.textField("Title", ui.binding.title),
        ui.textField("Notes", ui.binding.notes),
        ui.toggle("Favourite", ui.binding.favourite),
        s.problem and "! " .. s.problem or false,
      }),
      ui.hstack { ui.button("Done", "done"), ui.button("Discard", "discard") },
    }
  end,
}

-- The sheet's state for a record (nil: a new one).
function RecordForm.draft(record)
  if record == nil then return { heading = "New record", title = "", notes = "", favourite = false } end
  return { heading = "Edit record", title = record.title, notes = record.notes, favourite = record.favourite }
end

-- The record a checked draft describes, with the id it has (or is given).
function RecordForm.record(draft, id)
  return { id = id, title = draft.title, notes = draft.notes, favourite = draft.favourite }
end

return RecordForm
