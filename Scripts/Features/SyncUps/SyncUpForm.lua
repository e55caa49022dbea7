-- SyncUps' form (TCA's SyncUpForm), shown as a sheet to add a sync-up (from the list) or to edit
-- one (from the detail): a draft of the sync-up, edited field by field with bindings
-- (`binding.syncUp.title`, TCA's `$store.syncUp.title`), and its attendees. Saving or discarding
-- the draft is the presenter's.
local relua = require "relua"
local Models = require "Features.SyncUps.Models"
local feature, on = relua.feature, relua.on

local SyncUpForm = feature "SyncUpForm" {
  -- focus: "title", or { attendee = id } (TCA's Field)
  state = { focus = "title", syncUp = Models.SyncUp { id = "" } },

  -- :binding.syncUp.title "Retro", :binding.syncUp.duration 600, :binding.syncUp.theme "orange"
  bindable = { "focus", "syncUp" },

  -- onDeleteAttendees: the positions (from 1) of the rows swiped away
  actions = { addAttendeeButtonTapped = {}, onDeleteAttendees = "{integer}" },

  reduce = on {
    addAttendeeButtonTapped = function(s, _, deps)
      local attendee = Models.Attendee(deps.uuid())
      table.insert(s.syncUp.attendees, attendee)
      s.focus = { attendee = attendee.id }
    end,
    onDeleteAttendees = function(s, positions, deps)
      local attendees = s.syncUp.attendees
      table.sort(positions, function(a, b) return a > b end)
      for _, position in ipairs(positions) do table.remove(attendees, position) end
      if #attendees == 0 then table.insert(attendees, Models.Attendee(deps.uuid())) end
      local first = positions[#positions]
      if first == nil then return end
      s.focus = { attendee = attendees[math.min(first, #attendees)].id }
    end,
  },

  view = function(s)
    local syncUp = s.syncUp
    local lines = {
      ("Title:     %s"):format(syncUp.title == "" and "(none)" or syncUp.title),
      ("Length:    %d min"):format(syncUp.duration // 60),
      ("Theme:     %s"):format(syncUp.theme),
      "Attendees:",
    }
    for i, attendee in ipairs(syncUp.attendees) do
      lines[#lines + 1] = ("  %d. %s"):format(i, attendee.name == "" and "(no name)" or attendee.name)
    end
    lines[#lines + 1] = ':binding.syncUp.title "…"   :binding.syncUp.duration SECONDS   :binding.syncUp.theme "…"'
    lines[#lines + 1] = ":addAttendeeButtonTapped   :onDeleteAttendees {N}"
    return table.concat(lines, "\n")
  end,
}

-- The form's state for a sync-up (TCA's SyncUpForm.State.init): a sync-up without attendees gets
-- an empty one to fill in, with an id from `deps.uuid`.
function SyncUpForm.State(syncUp, deps)
  local form = { focus = "title", syncUp = syncUp }
  if #syncUp.attendees == 0 then syncUp.attendees[1] = Models.Attendee(deps.uuid()) end
  return form
end

return SyncUpForm
