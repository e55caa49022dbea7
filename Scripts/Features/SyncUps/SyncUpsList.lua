-- SyncUps' first screen (TCA's SyncUpsList): the sync-ups, kept in sync-ups.json, and a sheet to
-- add one (the form). Opening a sync-up is the app's (its stack).
local relua = require "relua"
local ui = relua.ui
local SyncUpForm = require "Features.SyncUps.SyncUpForm"
local Models = SyncUpForm.Models
local feature, on = relua.feature, relua.on

-- A sync-up's row: its place, title, attendees, length and theme.
local function rowText(syncUp, position)
  local attendees = #syncUp.attendees
  return ("  %d. %s — %d attendee%s, %d:%02d, %s"):format(position,
    syncUp.title == "" and "(untitled)" or syncUp.title, attendees, attendees == 1 and "" or "s",
    syncUp.duration // 60, syncUp.duration % 60, syncUp.theme)
end

-- The list's screen; `open(syncUp, position)`, when given, adds a node to each row (the app's
-- link that pushes the sync-up's detail: opening is the app's action), and `prefix` is where the
-- list's own actions are from the view that draws it ("syncUpsList." in the app's).
local function listView(s, open, prefix)
  prefix = prefix or ""
  return ui.vstack {
    "Daily Sync-ups",
    #s.syncUps == 0 and "  (none yet)" or ui.list(s.syncUps, function(syncUp, position)
      return ui.hstack {
        rowText(syncUp, position),
        open and open(syncUp, position) or false,
        ui.button("Delete", prefix .. "onDelete", { position }),
      }
    end),
    ui.button("New sync-up", prefix .. "addSyncUpButtonTapped"),
    -- The sheet's bar (TCA's toolbar on the form, in the list's view): the list's actions.
    s.destination ~= nil and s.destination.add ~= nil and ui.toolbar(prefix .. "destination.add", {
      ui.button("Dismiss", prefix .. "dismissAddSyncUpButtonTapped"),
      ui.button("Add", prefix .. "confirmAddSyncUpButtonTapped"),
    }),
  }
end

local function isBlank(text) return text:match("^%s*$") ~= nil end

local SyncUpsList = feature "SyncUpsList" {
  -- destination: nil, or { add = the form's state }
  state = { destination = nil, syncUps = relua.identified {} },

  shared = { syncUps = Models.SyncUps },

  -- onDelete: the positions (from 1) of the rows swiped away
  actions = {
    addSyncUpButtonTapped = {},
    confirmAddSyncUpButtonTapped = {},
    dismissAddSyncUpButtonTapped = {},
    onDelete = "{integer}",
  },

  compose = { relua.presents("destination", { add = SyncUpForm }) },

  reduce = on {
    addSyncUpButtonTapped = function(s, _, deps)
      s.destination = { add = SyncUpForm.State(Models.SyncUp { id = deps.uuid() }, deps) }
    end,
    confirmAddSyncUpButtonTapped = function(s, _, deps)
      local form = s.destination and s.destination.add
      if form == nil then return end
      local syncUp = copy(form.syncUp)
      for i = #syncUp.attendees, 1, -1 do
        if isBlank(syncUp.attendees[i].name) then table.remove(syncUp.attendees, i) end
      end
      if #syncUp.attendees == 0 then
        syncUp.attendees[1] = copy(form.syncUp.attendees[1]) or Models.Attendee(deps.uuid())
      end
      s.destination = nil
      s.syncUps[#s.syncUps + 1] = syncUp
    end,
    dismissAddSyncUpButtonTapped = function(s) s.destination = nil end,
    onDelete = function(s, positions)
      table.sort(positions, function(a, b) return a > b end)
      for _, position in ipairs(positions) do table.remove(s.syncUps, position) end
    end,
  },

  view = function(s) return listView(s) end,
}

-- The list's state (TCA's SyncUpsList.State(destination:)): the sync-ups are the shared ones.
function SyncUpsList.State(fields)
  return { destination = fields and fields.destination, syncUps = relua.identified {} }
end

SyncUpsList.listView = listView
return SyncUpsList
