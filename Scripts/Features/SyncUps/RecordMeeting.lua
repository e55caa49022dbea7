-- SyncUps' meeting in progress (TCA's RecordMeeting), pushed on the app's stack. When its screen
-- appears (its task, `onTask`) one named effect asks for speech recognition, then runs the timer
-- and the transcript side by side (`relua.taskGroup`, TCA's withTaskGroup). Each attendee speaks
-- their share of the duration; at the end — or when the user ends early and saves — the meeting
-- goes into the shared sync-up's past meetings and the screen dismisses itself.
local relua = require "relua"
local ui = relua.ui
local Models = require("Features.SyncUps.SyncUpForm").Models
local feature, on, Effect = relua.feature, relua.on, relua.Effect

-- SyncUps' own dependencies (TCA's SpeechClient and openSettings), declared as TCA declares a
-- DependencyKey: a live value and a test value.
--
--   deps.speechClient.authorizationStatus()   "notDetermined" | "denied" | "restricted" | "authorized"
--   deps.speechClient.requestAuthorization()  asks (may wait), answers one of those
--   deps.speechClient.startTask()             a stream of transcripts (each the whole text so far);
--                                             it raises when the recognizer fails
--   deps.openSettings()                       opens the system's settings
--
-- relua has no microphone: the live recognizer transcribes what the store's owner posts as
-- "speech" (in the REPL: =store:post("speech", "Hello")).
relua.dependency "speechClient" {
  live = {
    authorizationStatus = function() return "authorized" end,
    requestAuthorization = function() return "authorized" end,
    -- Each "speech" posted is the transcript so far (TCA's bestTranscription.formattedString).
    startTask = function() return relua.deps.notifications("speech") end,
  },
  -- In tests: nothing is authorized and nothing is heard, unless the test says otherwise.
  test = {
    authorizationStatus = function() return "denied" end,
    requestAuthorization = function() return "denied" end,
    startTask = function() return function() return nil end end,
  },
}

relua.dependency "openSettings" {
  live = function() end,
}

-- The meeting, first among the sync-up's past meetings (TCA's meetings.insert(_, at: 0)).
local function saveMeeting(s, deps)
  -- (Whole seconds: a date read back from sync-ups.json is an integer, and state keeps 1 and 1.0 apart.)
  table.insert(s.syncUp.meetings, 1, Models.Meeting(deps.uuid(), math.floor(deps.date()), s.transcript))
end

local function dismiss(deps) return Effect.run(function() deps.dismiss() end) end

-- The recording's alerts (TCA's AlertState statics).
local Alert = {
  endMeeting = function(isDiscardable)
    local buttons = { { label = "Save and end", action = "confirmSave" } }
    if isDiscardable then buttons[#buttons + 1] = { label = "Discard", action = "confirmDiscard" } end
    buttons[#buttons + 1] = { label = "Resume" }
    return {
      title = "End meeting?",
      message = "You are ending the meeting early. What would you like to do?",
      buttons = buttons,
    }
  end,
  speechRecognizerFailed = {
    title = "Speech recognition failure",
    message = "The speech recognizer has failed for some reason and so your meeting will no longer be "
      .. "recorded. What do you want to do?",
    buttons = { { label = "Continue meeting" }, { label = "Discard meeting", action = "confirmDiscard" } },
  },
}

local RecordMeeting = feature "RecordMeeting" {
  -- speakerIndex: who speaks, from 1 (the attendees' order); alert: nil or the alert shown
  state = { alert = nil, secondsElapsed = 0, speakerIndex = 1, syncUp = Models.SyncUp { id = "" }, transcript = "" },

  shared = { syncUp = Models.SyncUps:element() },

  actions = {
    endMeetingButtonTapped = {},
    nextButtonTapped = {},
    onTask = {},
    timerTick = {},
    speechFailure = {},
    speechResult = "string",
  },

  task = "onTask",

  compose = { relua.presents("alert", relua.alert { confirmDiscard = {}, confirmSave = {} }) },

  reduce = on {
    ["alert.confirmDiscard"] = function(_, _, deps) return dismiss(deps) end,
    ["alert.confirmSave"] = function(s, _, deps)
      saveMeeting(s, deps)
      return dismiss(deps)
    end,
    endMeetingButtonTapped = function(s) s.alert = Alert.endMeeting(true) end,
    nextButtonTapped = function(s)
      if s.speakerIndex >= #s.syncUp.attendees then
        s.alert = Alert.endMeeting(false)
        return
      end
      s.speakerIndex = s.speakerIndex + 1
      s.secondsElapsed = (s.speakerIndex - 1) * Models.durationPerAttendee(s.syncUp)
    end,
    onTask = function(_, _, deps)
      return Effect.run(function(send)
        relua.taskGroup(function(group)
          if deps.speechClient.requestAuthorization() == "authorized" then
            group:spawn(function()
              local heard = pcall(function()
                for transcript in deps.speechClient.startTask() do send("speechResult", transcript) end
              end)
              if not heard then send("speechFailure") end
            end)
          end
          group:spawn(function()
            for _ in deps.clock.timer(1) do send("timerTick") end
          end)
        end)
      end, { name = "recording" })
    end,
    timerTick = function(s, _, deps)
      if s.alert ~= nil then return end
      s.secondsElapsed = s.secondsElapsed + 1
      local perAttendee = Models.durationPerAttendee(s.syncUp)
      if s.secondsElapsed % perAttendee == 0 then
        if s.secondsElapsed >= s.syncUp.duration then
          saveMeeting(s, deps)
          return dismiss(deps)
        end
        s.speakerIndex = s.speakerIndex + 1
      end
    end,
    speechFailure = function(s)
      if s.transcript ~= "" then s.transcript = s.transcript .. " ❌" end
      s.alert = Alert.speechRecognizerFailed
    end,
    speechResult = function(s, transcript) s.transcript = transcript end,
  },

  view = function(s)
    local syncUp = s.syncUp
    local speaker = syncUp.attendees[s.speakerIndex]
    local remaining = syncUp.duration - s.secondsElapsed
    return ui.vstack {
      ("Recording %s   %d:%02d elapsed, %d:%02d remaining"):format(syncUp.title == "" and "(untitled)" or syncUp.title,
        s.secondsElapsed // 60, s.secondsElapsed % 60, remaining // 60, remaining % 60),
      ("  Speaker %d of %d: %s"):format(s.speakerIndex, #syncUp.attendees,
        speaker and (speaker.name == "" and "(no name)" or speaker.name) or "?"),
      ("  Transcript: %s"):format(s.transcript == "" and "(nothing heard)" or s.transcript),
      ui.hstack { ui.button("Next speaker", "nextButtonTapped"), ui.button("End meeting", "endMeetingButtonTapped") },
      ui.replHint('(=store:post("speech", "what was said so far"))'),
    }
  end,
}

-- The screen's state for a sync-up (TCA's RecordMeeting.State(syncUp:)).
function RecordMeeting.State(syncUp)
  return { secondsElapsed = 0, speakerIndex = 1, syncUp = syncUp, transcript = "" }
end

RecordMeeting.Alert = Alert
return RecordMeeting
