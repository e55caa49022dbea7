-- SyncUps' detail screen (TCA's SyncUpDetail), pushed on the app's stack. It holds its sync-up as
-- an element of the shared list (`Models.SyncUps:element()`, TCA's `$syncUps[id:]`): an edit saved
-- here, a meeting recorded elsewhere, is the list's and the file's at once. It edits in a sheet,
-- asks before deleting, and asks the app to start a meeting (its delegate) once speech
-- recognition allows it or the user goes on without.
local relua = require "relua"
local ui = relua.ui
local SyncUpForm = require "Features.SyncUps.SyncUpForm"
local Models = SyncUpForm.Models
require "Features.SyncUps.RecordMeeting"   -- declares deps.speechClient and deps.openSettings
local feature, on, Effect = relua.feature, relua.on, relua.Effect

-- The detail's alerts (TCA's AlertState statics).
local Alert = {
  deleteSyncUp = {
    title = "Delete?",
    message = "Are you sure you want to delete this meeting?",
    buttons = { { label = "Yes", action = "confirmDeletion" }, { label = "Nevermind" } },
  },
  speechRecognitionDenied = {
    title = "Speech recognition denied",
    message = "You previously denied speech recognition and so your meeting will not be recorded. You can "
      .. "enable speech recognition in settings, or you can continue without recording.",
    buttons = {
      { label = "Continue without recording", action = "continueWithoutRecording" },
      { label = "Open settings", action = "openSettings" },
      { label = "Cancel" },
    },
  },
  speechRecognitionRestricted = {
    title = "Speech recognition restricted",
    message = "Your device does not support speech recognition and so your meeting will not be recorded.",
    buttons = { { label = "Continue without recording", action = "continueWithoutRecording" }, { label = "Cancel" } },
  },
}

local SyncUpDetail = feature "SyncUpDetail" {
  -- destination: nil, { alert = … } or { edit = the form's state }
  state = { destination = nil, syncUp = Models.SyncUp { id = "" } },

  shared = { syncUp = Models.SyncUps:element() },

  -- deleteMeetings: the positions (from 1) of the meetings swiped away
  actions = {
    cancelEditButtonTapped = {},
    deleteButtonTapped = {},
    deleteMeetings = "{integer}",
    doneEditingButtonTapped = {},
    editButtonTapped = {},
    meetingTapped = "integer",           -- a past meeting's row (the app pushes it: TCA's NavigationLink(state:))
    startMeetingButtonTapped = {},
    delegate = relua.group { startMeeting = {} },
  },

  compose = {
    relua.presents("destination", {
      alert = relua.alert { confirmDeletion = {}, continueWithoutRecording = {}, openSettings = {} },
      edit = SyncUpForm,
    }),
  },

  reduce = on {
    cancelEditButtonTapped = function(s) s.destination = nil end,
    deleteButtonTapped = function(s) s.destination = { alert = Alert.deleteSyncUp } end,
    deleteMeetings = function(s, positions)
      table.sort(positions, function(a, b) return a > b end)
      for _, position in ipairs(positions) do table.remove(s.syncUp.meetings, position) end
    end,
    -- The detail does not hold the list, only its sync-up: it removes it from the list with a
    -- locked write (TCA's `$syncUps.withLock` in the reducer), then closes the screen.
    ["destination.alert.confirmDeletion"] = function(s, _, deps)
      local id = s.syncUp.id
      Models.SyncUps:withLock(function(syncUps)
        for i = #syncUps, 1, -1 do
          if syncUps[i].id == id then table.remove(syncUps, i) end
        end
      end)
      return Effect.run(function() deps.dismiss() end)
    end,
    ["destination.alert.continueWithoutRecording"] = function() return Effect.send("delegate.startMeeting") end,
    ["destination.alert.openSettings"] = function(_, _, deps)
      return Effect.run(function() deps.openSettings() end)
    end,
    doneEditingButtonTapped = function(s)
      local form = s.destination and s.destination.edit
      if form == nil then return end
      s.syncUp = form.syncUp
      s.destination = nil
    end,
    editButtonTapped = function(s, _, deps)
      s.destination = { edit = SyncUpForm.State(copy(s.syncUp), deps) }
    end,
    startMeetingButtonTapped = function(s, _, deps)
      local status = deps.speechClient.authorizationStatus()
      if status == "notDetermined" or status == "authorized" then
        return Effect.send("delegate.startMeeting")
      elseif status == "denied" then
        s.destination = { alert = Alert.speechRecognitionDenied }
      elseif status == "restricted" then
        s.destination = { alert = Alert.speechRecognitionRestricted }
      end
    end,
  },

  view = function(s)
    local syncUp = s.syncUp
    local names = {}
    for _, attendee in ipairs(syncUp.attendees) do
      names[#names + 1] = attendee.name == "" and "(no name)" or attendee.name
    end
    return ui.vstack {
      syncUp.title == "" and "(untitled)" or syncUp.title,
      ("Length: %d:%02d   Theme: %s"):format(syncUp.duration // 60, syncUp.duration % 60, syncUp.theme),
      "Attendees: " .. (#names == 0 and "(none)" or table.concat(names, ", ")),
      ui.section("Past meetings:", {
        #syncUp.meetings == 0 and "(none)" or ui.list(syncUp.meetings, function(meeting, i)
          return ui.hstack {
            ("%d. %s  %s"):format(i, Models.formatDate(meeting.date),
              meeting.transcript == "" and "(no transcript)" or meeting.transcript),
            ui.link("Open", "meetingTapped", i),
          }
        end),
      }),
      ui.hstack {
        ui.button("Start meeting", "startMeetingButtonTapped"),
        ui.link("Edit", "editButtonTapped"),
        ui.button("Delete", "deleteButtonTapped"),
      },
      s.destination ~= nil and s.destination.edit ~= nil and ui.toolbar("destination.edit", {
        ui.button("Cancel", "cancelEditButtonTapped"),
        ui.button("Done", "doneEditingButtonTapped"),
      }),
    }
  end,
}

-- The screen's state for a sync-up (TCA's SyncUpDetail.State(syncUp:)); destination: nil or
-- { alert = … } / { edit = … }.
function SyncUpDetail.State(syncUp, destination)
  return { destination = destination, syncUp = syncUp }
end

SyncUpDetail.Alert = Alert
return SyncUpDetail
