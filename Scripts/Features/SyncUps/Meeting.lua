-- SyncUps' past meeting screen (TCA's MeetingView, the path's `case meeting(Meeting, syncUp:)`):
-- only state — the meeting and its sync-up — with no actions, so no feature: a kind of the
-- stack that is only state.
local relua = require "relua"
local Models = require "Features.SyncUps.Models"

return relua.stateOnly {
  name = "Meeting",
  view = function(s)
    local names = {}
    for _, attendee in ipairs(s.syncUp.attendees) do names[#names + 1] = attendee.name end
    return table.concat({
      ("%s — %s"):format(s.syncUp.title == "" and "(untitled)" or s.syncUp.title, Models.formatDate(s.meeting.date)),
      "  Attendees: " .. table.concat(names, ", "),
      "  Transcript: " .. (s.meeting.transcript == "" and "(none)" or s.meeting.transcript),
      ":back",
    }, "\n")
  end,
}
