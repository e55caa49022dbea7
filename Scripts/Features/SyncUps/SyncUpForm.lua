-- SyncUps' form (TCA's SyncUpForm), shown as a sheet to add a sync-up (from the list) or to edit
-- one (from the detail): a draft of the sync-up, edited field by field with bindings
-- (`binding.syncUp.title`, TCA's `$store.syncUp.title`), and its attendees. Saving or discarding
-- the draft is the presenter's.
local relua = require "relua"
local ui = relua.ui
local feature, on = relua.feature, relua.on

-- SyncUps' models (TCA's Models.swift) live here, with the form that edits them (every script
-- under Scripts/Features returns a feature): `SyncUpForm.Models`.
--
--   syncUp   = { id, attendees = { { id, name } }, duration (seconds), meetings = { meeting }, theme, title }
--   meeting  = { id, date (whole seconds since 1970), transcript }
local Models = {}

-- The sync-ups, kept in sync-ups.json (TCA's `.fileStorage(.documentsDirectory.appending(…))`):
-- beside the script root in `relua repl`, in memory in a test store.
Models.SyncUps = relua.fileStorage("sync-ups.json")

Models.themes = { "bubblegum", "buttercup", "indigo", "lavender", "magenta", "navy", "orange", "oxblood",
  "periwinkle", "poppy", "purple", "seafoam", "sky", "tan", "teal", "yellow" }

-- A sync-up with TCA's defaults (5 minutes, bubblegum, no title); `fields` overrides them.
function Models.SyncUp(fields)
  local syncUp = { id = fields.id, attendees = fields.attendees or {}, duration = fields.duration or 5 * 60,
    meetings = fields.meetings or {}, theme = fields.theme or "bubblegum", title = fields.title or "" }
  return syncUp
end

function Models.Attendee(id, name) return { id = id, name = name or "" } end

function Models.Meeting(id, date, transcript) return { id = id, date = date, transcript = transcript } end

-- Seconds each attendee speaks (TCA's durationPerAttendee).
function Models.durationPerAttendee(syncUp)
  return syncUp.duration // math.max(#syncUp.attendees, 1)
end

-- "2009-02-13 23:31" for 1234567890 (UTC; Howard Hinnant's days-to-civil, as the sandbox has no os.date).
function Models.formatDate(seconds)
  local days, rest = seconds // 86400, seconds % 86400
  local z = days + 719468
  local era = z // 146097
  local doe = z - era * 146097
  local yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
  local doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
  local mp = (5 * doy + 2) // 153
  local day = doy - (153 * mp + 2) // 5 + 1
  local month = mp < 10 and mp + 3 or mp - 9
  local year = yoe + era * 400 + (month <= 2 and 1 or 0)
  return ("%04d-%02d-%02d %02d:%02d"):format(year, month, day, rest // 3600, rest % 3600 // 60)
end

-- TCA's SyncUp.mock: a design sync-up of six, one past meeting.
function Models.mock()
  return Models.SyncUp {
    id = relua.uuid(0xdeadbeef),
    attendees = {
      Models.Attendee(relua.uuid(0xa1), "Blob"), Models.Attendee(relua.uuid(0xa2), "Blob Jr"),
      Models.Attendee(relua.uuid(0xa3), "Blob Sr"), Models.Attendee(relua.uuid(0xa4), "Blob Esq"),
      Models.Attendee(relua.uuid(0xa5), "Blob III"), Models.Attendee(relua.uuid(0xa6), "Blob I"),
    },
    duration = 60,
    meetings = { Models.Meeting(relua.uuid(0xe1), 1234567890, "Hello world! Everyone finished their tasks.") },
    theme = "orange",
    title = "Design",
  }
end

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

  -- The sync-up's fields, bound through `syncUp` (nested bindings), and its attendees.
  view = function(s)
    local syncUp = s.syncUp
    return ui.vstack {
      ui.textField("Title", ui.binding.syncUp.title),
      ui.stepper("Length (seconds)", ui.binding.syncUp.duration),
      ui.picker("Theme", ui.binding.syncUp.theme, Models.themes),
      ui.section("Attendees:", {
        ui.list(syncUp.attendees, function(attendee, i)
          return ui.hstack {
            ("%d. %s"):format(i, attendee.name == "" and "(no name)" or attendee.name),
            ui.button("Delete", "onDeleteAttendees", { i }),
          }
        end),
      }),
      ui.button("Add attendee", "addAttendeeButtonTapped"),
    }
  end,
}

-- The form's state for a sync-up (TCA's SyncUpForm.State.init): a sync-up without attendees gets
-- an empty one to fill in, with an id from `deps.uuid`.
function SyncUpForm.State(syncUp, deps)
  local form = { focus = "title", syncUp = syncUp }
  if #syncUp.attendees == 0 then syncUp.attendees[1] = Models.Attendee(deps.uuid()) end
  return form
end

SyncUpForm.Models = Models
return SyncUpForm
