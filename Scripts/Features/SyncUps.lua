-- An example app: TCA's SyncUps (Examples/SyncUps in swift-composable-architecture), in relua.
--
--   SyncUps (the app) ── stack ──▶  SyncUpDetail ──▶ RecordMeeting (its task: timer + speech)
--     │ scope                          │ destination   └─ alert (end meeting?)
--     └─ SyncUpsList                   ├─ SyncUpForm (edit sheet)
--          └─ SyncUpForm (add sheet)   ├─ alert (delete? / speech denied)
--                                      └─ … ──▶ Meeting (a past one: only state)
--
-- The sync-ups are kept in sync-ups.json (`relua.fileStorage`): the list holds them all, the
-- detail and the recording each hold theirs (`SyncUps:element()`), so a recorded meeting is in
-- the detail, the list and the file at once. Play it with `relua repl Scripts/Features/SyncUps.lua`
-- (sync-ups.json is written beside this script); the speech recognizer hears what you post:
-- `=store:post("speech", "Hello")`.
local relua = require "relua"
local ui = relua.ui
local SyncUpsList = require "Features.SyncUps.SyncUpsList"
local SyncUpDetail = require "Features.SyncUps.SyncUpDetail"
local RecordMeeting = require "Features.SyncUps.RecordMeeting"
local feature, on = relua.feature, relua.on
local Models = require("Features.SyncUps.SyncUpForm").Models

-- SyncUps' past meeting screen (TCA's MeetingView, the path's `case meeting(Meeting, syncUp:)`):
-- only state — the meeting and its sync-up — with no actions, so no feature: a kind of the
-- stack that is only state.
local Meeting = relua.stateOnly {
  name = "Meeting",
  view = function(s)
    local names = {}
    for _, attendee in ipairs(s.syncUp.attendees) do
      names[#names + 1] = attendee.name == "" and "(no name)" or attendee.name
    end
    return table.concat({
      ("%s — %s"):format(s.syncUp.title == "" and "(untitled)" or s.syncUp.title, Models.formatDate(s.meeting.date)),
      "  Attendees: " .. table.concat(names, ", "),
      "  Transcript: " .. (s.meeting.transcript == "" and "(none)" or s.meeting.transcript),
      ":back",
    }, "\n")
  end,
}

-- The element of the stack with this id.
local function element(path, id)
  for _, e in ipairs(path) do
    if e.id == id then return e end
  end
end

local SyncUps = feature "SyncUps" {
  state = function(deps) return { path = {}, syncUpsList = SyncUpsList:initial(deps) } end,

  -- syncUpTapped and path.detail.meetingTapped stand for TCA's NavigationLink(state:), which
  -- pushes an element: tests push with path.push, as TCA's do.
  actions = { syncUpTapped = "integer" },

  compose = {
    relua.scope("syncUpsList", SyncUpsList),
    relua.stack("path", { detail = SyncUpDetail, meeting = Meeting, record = RecordMeeting }),
  },

  reduce = on {
    syncUpTapped = function(s, position)
      local syncUp = s.syncUpsList.syncUps[position]
      if syncUp == nil then return end
      relua.push(s.path, { detail = SyncUpDetail.State(copy(syncUp)) })
    end,
    ["path.detail.meetingTapped"] = function(s, position, _, id)
      local syncUp = element(s.path, id).detail.syncUp
      local meeting = syncUp.meetings[position]
      if meeting == nil then return end
      relua.push(s.path, { meeting = { meeting = copy(meeting), syncUp = copy(syncUp) } })
    end,
    ["path.detail.delegate.startMeeting"] = function(s, _, _, id)
      relua.push(s.path, { record = RecordMeeting.State(copy(element(s.path, id).detail.syncUp)) })
    end,
  },

  -- The list's screen (its buttons send syncUpsList.…), each row with the app's link that pushes
  -- the sync-up's detail.
  view = function(s)
    return SyncUpsList.listView(s.syncUpsList, function(_, position)
      return ui.link("Open", "syncUpTapped", position)
    end, "syncUpsList.")
  end,
}

SyncUps.List, SyncUps.Detail, SyncUps.Form = SyncUpsList, SyncUpDetail, require "Features.SyncUps.SyncUpForm"
SyncUps.Record, SyncUps.Meeting = RecordMeeting, Meeting
SyncUps.Models = Models
return SyncUps
