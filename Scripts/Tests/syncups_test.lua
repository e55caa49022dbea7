-- TCA's SyncUps app (Scripts/Features/SyncUps.lua) with its tests, ported step for step from
-- swift-composable-architecture's Examples/SyncUps/SyncUpsTests: SyncUpsListTests,
-- SyncUpDetailTests, SyncUpFormTests, RecordMeetingTests and AppFeatureTests. Lua counts from 1:
-- TCA's `onDelete([0])` is `onDelete({ 1 })` here, its `speakerIndex = 0` is `speakerIndex = 1`.
local relua = require "relua"
local SyncUps = require "Features.SyncUps"
local SyncUpsList, SyncUpDetail, SyncUpForm, RecordMeeting = SyncUps.List, SyncUps.Detail, SyncUps.Form, SyncUps.Record
local Models = SyncUps.Models
local SyncUp, Attendee, Meeting = Models.SyncUp, Models.Attendee, Models.Meeting
local uuid = relua.uuid

-- TCA's AsyncThrowingStream { continuation.yield(…) …; continuation.finish(throwing:) }: the
-- transcripts, then the stream's end, or its failure.
local function transcripts(texts, failure)
  local i = 0
  return function()
    i = i + 1
    if texts[i] ~= nil then return texts[i] end
    if failure then error(failure, 0) end
  end
end

-- TCA's `@Shared(.syncUps) var syncUps = [syncUp]` before the store is made: sync-ups.json holds them.
local function syncUpsFile(syncUps) return { ["sync-ups.json"] = relua.toJSON(syncUps) } end

describe("SyncUpsListTests", function()
  it("add", function()
    local store = relua.TestStore(SyncUpsList, { deps = { uuid = "incrementing" } })

    local syncUp = SyncUp { id = uuid(0), attendees = { Attendee(uuid(1)) } }
    store:send("addSyncUpButtonTapped", function(s)
      s.destination = { add = SyncUpForm.State(syncUp) }
    end)

    syncUp.title = "Engineering"
    store:send("destination.add.binding.syncUp.title", "Engineering", function(s)
      s.destination.add.syncUp.title = "Engineering"
    end)

    store:send("confirmAddSyncUpButtonTapped", function(s)
      s.destination = nil
      s.syncUps = { syncUp }
    end)
  end)

  it("addValidatedAttendees", function()
    local store = relua.TestStore(SyncUpsList, {
      state = function(deps)
        return SyncUpsList.State { destination = { add = SyncUpForm.State(SyncUp {
          id = deps.uuid(),
          attendees = { Attendee(deps.uuid(), ""), Attendee(deps.uuid(), "    ") },
          title = "Design",
        }) } }
      end,
      deps = { uuid = "incrementing" },
    })

    store:send("confirmAddSyncUpButtonTapped", function(s)
      s.destination = nil
      s.syncUps = { SyncUp { id = uuid(0), attendees = { Attendee(uuid(1)) }, title = "Design" } }
    end)
  end)

  it("delete", function()
    local syncUp = Models.mock()
    local store = relua.TestStore(SyncUpsList, { files = syncUpsFile { syncUp } })

    store:send("onDelete", { 1 }, function(s)
      s.syncUps = {}
    end)
  end)
end)

describe("SyncUpDetailTests", function()
  it("speechRestricted", function()
    local store = relua.TestStore(SyncUpDetail, {
      state = SyncUpDetail.State(Models.mock()),
      deps = { speechClient = { authorizationStatus = function() return "restricted" end } },
    })

    store:send("startMeetingButtonTapped", function(s)
      s.destination = { alert = SyncUpDetail.Alert.speechRecognitionRestricted }
    end)
  end)

  it("speechDenied", function()
    local store = relua.TestStore(SyncUpDetail, {
      state = SyncUpDetail.State(Models.mock()),
      deps = { speechClient = { authorizationStatus = function() return "denied" end } },
    })

    store:send("startMeetingButtonTapped", function(s)
      s.destination = { alert = SyncUpDetail.Alert.speechRecognitionDenied }
    end)
  end)

  it("openSettings", function()
    local settingsOpened = false
    local store = relua.TestStore(SyncUpDetail, {
      state = SyncUpDetail.State(Models.mock(), { alert = SyncUpDetail.Alert.speechRecognitionDenied }),
      deps = {
        openSettings = function() settingsOpened = true end,
        speechClient = { authorizationStatus = function() return "denied" end },
      },
    })

    store:send("destination.alert.openSettings", function(s)
      s.destination = nil
    end)
    expect(settingsOpened).to_be(true)
  end)

  it("continueWithoutRecording", function()
    local store = relua.TestStore(SyncUpDetail, {
      state = SyncUpDetail.State(Models.mock(), { alert = SyncUpDetail.Alert.speechRecognitionDenied }),
      deps = { speechClient = { authorizationStatus = function() return "denied" end } },
    })

    store:send("destination.alert.continueWithoutRecording", function(s)
      s.destination = nil
    end)

    store:receive("delegate.startMeeting")
  end)

  it("speechAuthorized", function()
    local store = relua.TestStore(SyncUpDetail, {
      state = SyncUpDetail.State(Models.mock()),
      deps = { speechClient = { authorizationStatus = function() return "authorized" end } },
    })

    store:send("startMeetingButtonTapped")

    store:receive("delegate.startMeeting")
  end)

  it("edit", function()
    local syncUp = Models.mock()
    local store = relua.TestStore(SyncUpDetail, {
      state = SyncUpDetail.State(syncUp),
      deps = { uuid = "incrementing" },
    })

    store:send("editButtonTapped", function(s)
      s.destination = { edit = SyncUpForm.State(syncUp) }
    end)

    syncUp.title = "Blob's Meeting"
    store:send("destination.edit.binding.syncUp", syncUp, function(s)
      s.destination.edit.syncUp.title = "Blob's Meeting"
    end)

    store:send("doneEditingButtonTapped", function(s)
      s.destination = nil
      s.syncUp.title = "Blob's Meeting"
    end)
  end)

  it("delete", function()
    local syncUp = Models.mock()
    local store = relua.TestStore(SyncUpDetail, {
      state = SyncUpDetail.State(syncUp),
      files = syncUpsFile { syncUp },
    })

    store:send("deleteButtonTapped", function(s)
      s.destination = { alert = SyncUpDetail.Alert.deleteSyncUp }
    end)
    store:send("destination.alert.confirmDeletion", function(s)
      s.destination = nil
    end)
    expect(store.isDismissed).to_be(true)
    expect(store:shared(Models.SyncUps)).to_equal({})
  end)
end)

describe("SyncUpFormTests", function()
  it("addAttendee", function()
    local store = relua.TestStore(SyncUpForm, {
      state = function(deps)
        return SyncUpForm.State(SyncUp { id = uuid(0xe0), attendees = {}, title = "Engineering" }, deps)
      end,
      deps = { uuid = "incrementing" },
    })

    store:send("addAttendeeButtonTapped", function(s)
      local attendee = Attendee(uuid(1))
      s.focus = { attendee = attendee.id }
      table.insert(s.syncUp.attendees, attendee)
    end)
  end)

  it("focus_RemoveAttendee", function()
    local store = relua.TestStore(SyncUpForm, {
      state = SyncUpForm.State(SyncUp {
        id = uuid(0xe0),
        attendees = { Attendee(uuid(0)), Attendee(uuid(1)), Attendee(uuid(2)), Attendee(uuid(3)) },
        title = "Engineering",
      }),
      deps = { uuid = "incrementing" },
    })

    store:send("onDeleteAttendees", { 1 }, function(s)
      s.focus = { attendee = s.syncUp.attendees[2].id }
      s.syncUp.attendees = { s.syncUp.attendees[2], s.syncUp.attendees[3], s.syncUp.attendees[4] }
    end)

    store:send("onDeleteAttendees", { 2 }, function(s)
      s.focus = { attendee = s.syncUp.attendees[3].id }
      s.syncUp.attendees = { s.syncUp.attendees[1], s.syncUp.attendees[3] }
    end)

    store:send("onDeleteAttendees", { 2 }, function(s)
      s.focus = { attendee = s.syncUp.attendees[1].id }
      s.syncUp.attendees = { s.syncUp.attendees[1] }
    end)

    store:send("onDeleteAttendees", { 1 }, function(s)
      s.focus = { attendee = uuid(0) }
      s.syncUp.attendees = { Attendee(uuid(0)) }
    end)
  end)

  -- The form's `TextField("Name", text: $attendee.name)`: a name typed into a row's field is the
  -- binding into that attendee, the path the view's field sends.
  it("attendeeName", function()
    local store = relua.TestStore(SyncUpForm, {
      state = function(deps)
        return SyncUpForm.State(SyncUp { id = uuid(0xe0), attendees = {}, title = "Engineering" }, deps)
      end,
      deps = { uuid = "incrementing" },
    })
    store:send("addAttendeeButtonTapped", function(s)
      local attendee = Attendee(uuid(1))
      s.focus = { attendee = attendee.id }
      table.insert(s.syncUp.attendees, attendee)
    end)

    local field = relua.fromJSON(store:viewJSON()).children[4].children[1].rows[2].content.children[1]
    expect(field.binding.action).to_be(('binding.syncUp.attendees[id="%s"].name'):format(uuid(1)))
    store:send(field.binding.action, "Blob", function(s)
      s.syncUp.attendees[2].name = "Blob"
    end)
    store:send(tostring(relua.ui.binding.syncUp.attendees:at(uuid(0)).name), "Blob Jr", function(s)
      s.syncUp.attendees[1].name = "Blob Jr"
    end)
  end)
end)

describe("RecordMeetingTests", function()
  local function sixSecondsOfThree()
    return SyncUp { id = uuid(0xe0), attendees = { Attendee(uuid(0xa1)), Attendee(uuid(0xa2)), Attendee(uuid(0xa3)) }, duration = 6 }
  end

  it("timer", function()
    local syncUp = sixSecondsOfThree()
    local store = relua.TestStore(RecordMeeting, {
      state = RecordMeeting.State(syncUp),
      deps = {
        clock = "test",
        date = 1234567890,
        speechClient = { requestAuthorization = function() return "denied" end },
        uuid = "incrementing",
      },
    })

    store:send("onTask")

    store:advance(1)
    store:receive("timerTick", function(s)
      s.speakerIndex = 1
      s.secondsElapsed = 1
    end)

    store:advance(1)
    store:receive("timerTick", function(s)
      s.speakerIndex = 2
      s.secondsElapsed = 2
    end)

    store:advance(1)
    store:receive("timerTick", function(s)
      s.speakerIndex = 2
      s.secondsElapsed = 3
    end)

    store:advance(1)
    store:receive("timerTick", function(s)
      s.speakerIndex = 3
      s.secondsElapsed = 4
    end)

    store:advance(1)
    store:receive("timerTick", function(s)
      s.speakerIndex = 3
      s.secondsElapsed = 5
    end)

    store:advance(1)
    store:receive("timerTick", function(s)
      s.speakerIndex = 3
      s.secondsElapsed = 6
      table.insert(s.syncUp.meetings, 1, Meeting(uuid(0), 1234567890, ""))
    end)
    expect(store.isDismissed).to_be(true)
  end)

  it("recordTranscript", function()
    local store = relua.TestStore(RecordMeeting, {
      state = RecordMeeting.State(sixSecondsOfThree()),
      deps = {
        clock = "test",
        date = 1234567890,
        speechClient = {
          requestAuthorization = function() return "authorized" end,
          startTask = function() return transcripts { "I completed the project" } end,
        },
        uuid = "incrementing",
      },
    })

    store:send("onTask")

    store:receive("speechResult", function(s)
      s.transcript = "I completed the project"
    end)

    store:withExhaustivity("off", { showSkipped = true }, function()
      store:advance(6)
      store:receive("timerTick")
      store:receive("timerTick")
      store:receive("timerTick")
      store:receive("timerTick")
      store:receive("timerTick")
      store:receive("timerTick")
    end)

    store:assert(function(s)
      s.syncUp.meetings[1] = Meeting(uuid(0), 1234567890, "I completed the project")
    end)
    expect(store.isDismissed).to_be(true)
  end)

  it("endMeetingSave", function()
    local store = relua.TestStore(RecordMeeting, {
      state = RecordMeeting.State(Models.mock()),
      deps = {
        clock = "test",
        date = 1234567890,
        speechClient = { requestAuthorization = function() return "denied" end },
        uuid = "incrementing",
      },
    })

    local onTask = store:send("onTask")

    store:send("endMeetingButtonTapped", function(s)
      s.alert = RecordMeeting.Alert.endMeeting(true)
    end)

    store:advance(3)
    store:receive("timerTick")
    store:receive("timerTick")
    store:receive("timerTick")

    store:send("alert.confirmSave", function(s)
      s.alert = nil
      table.insert(s.syncUp.meetings, 1, Meeting(uuid(0), 1234567890, ""))
    end)
    expect(store.isDismissed).to_be(true)
    onTask:cancel()
  end)

  it("endMeetingDiscard", function()
    local store = relua.TestStore(RecordMeeting, {
      state = RecordMeeting.State(Models.mock()),
      deps = { clock = "test", speechClient = { requestAuthorization = function() return "denied" end } },
    })

    local task = store:send("onTask")

    store:send("endMeetingButtonTapped", function(s)
      s.alert = RecordMeeting.Alert.endMeeting(true)
    end)

    store:send("alert.confirmDiscard", function(s)
      s.alert = nil
    end)
    expect(store.isDismissed).to_be(true)
    task:cancel()
  end)

  it("nextSpeaker", function()
    local store = relua.TestStore(RecordMeeting, {
      state = RecordMeeting.State(sixSecondsOfThree()),
      deps = {
        clock = "test",
        date = 1234567890,
        speechClient = { requestAuthorization = function() return "denied" end },
        uuid = "incrementing",
      },
    })

    local onTask = store:send("onTask")

    store:send("nextButtonTapped", function(s)
      s.speakerIndex = 2
      s.secondsElapsed = 2
    end)

    store:send("nextButtonTapped", function(s)
      s.speakerIndex = 3
      s.secondsElapsed = 4
    end)

    store:send("nextButtonTapped", function(s)
      s.alert = RecordMeeting.Alert.endMeeting(false)
    end)

    store:send("alert.confirmSave", function(s)
      s.alert = nil
      table.insert(s.syncUp.meetings, 1, Meeting(uuid(0), 1234567890, ""))
    end)
    expect(store.isDismissed).to_be(true)
    onTask:cancel()
  end)

  it("speechRecognitionFailure_Continue", function()
    local store = relua.TestStore(RecordMeeting, {
      state = RecordMeeting.State(sixSecondsOfThree()),
      deps = {
        clock = "test",
        date = 1234567890,
        speechClient = {
          requestAuthorization = function() return "authorized" end,
          startTask = function() return transcripts({ "I completed the project" }, "SpeechRecognitionFailure") end,
        },
        uuid = "incrementing",
      },
    })

    local onTask = store:send("onTask")

    store:receive("speechResult", function(s)
      s.transcript = "I completed the project"
    end)

    store:receive("speechFailure", function(s)
      s.alert = RecordMeeting.Alert.speechRecognizerFailed
      s.transcript = "I completed the project ❌"
    end)

    store:send("alert.dismiss", function(s)
      s.alert = nil
    end)

    store:advance(6)

    store:exhaustive(false, { showSkipped = true })
    store:receive("timerTick")
    store:receive("timerTick")
    store:receive("timerTick")
    store:receive("timerTick")
    store:receive("timerTick")
    store:receive("timerTick")
    store:exhaustive(true)

    expect(store.isDismissed).to_be(true)
    onTask:cancel()
  end)

  it("speechRecognitionFailure_Discard", function()
    local store = relua.TestStore(RecordMeeting, {
      state = RecordMeeting.State(Models.mock()),
      deps = {
        clock = "test",
        speechClient = {
          requestAuthorization = function() return "authorized" end,
          startTask = function() return transcripts({}, "SpeechRecognitionFailure") end,
        },
      },
    })

    local onTask = store:send("onTask")

    store:receive("speechFailure", function(s)
      s.alert = RecordMeeting.Alert.speechRecognizerFailed
    end)

    store:send("alert.confirmDiscard", function(s)
      s.alert = nil
    end)
    expect(store.isDismissed).to_be(true)
    onTask:cancel()
  end)
end)

describe("AppFeatureTests", function()
  it("delete", function()
    local syncUp = Models.mock()
    local store = relua.TestStore(SyncUps, { files = syncUpsFile { syncUp } })

    store:send("path.push", { id = 0, detail = SyncUpDetail.State(syncUp) }, function(s)
      s.path[1] = { id = 0, detail = SyncUpDetail.State(syncUp) }
    end)

    store:send("path[id=0].detail.deleteButtonTapped", function(s)
      s.path[1].detail.destination = { alert = SyncUpDetail.Alert.deleteSyncUp }
    end)

    store:send("path[id=0].detail.destination.alert.confirmDeletion", function(s)
      s.path[1].detail.destination = nil
      s.syncUpsList.syncUps = {}
    end)

    store:receive("path.popFrom", function(s)
      s.path = {}
    end)
  end)

  it("detailEdit", function()
    local syncUp = Models.mock()
    local store = relua.TestStore(SyncUps, { files = syncUpsFile { syncUp }, deps = { uuid = "incrementing" } })

    store:send("path.push", { id = 0, detail = SyncUpDetail.State(syncUp) }, function(s)
      s.path[1] = { id = 0, detail = SyncUpDetail.State(syncUp) }
    end)

    store:send("path[id=0].detail.editButtonTapped", function(s)
      s.path[1].detail.destination = { edit = SyncUpForm.State(syncUp) }
    end)

    syncUp.title = "Blob"
    store:send("path[id=0].detail.destination.edit.binding.syncUp", syncUp, function(s)
      s.path[1].detail.destination.edit.syncUp.title = "Blob"
    end)

    store:send("path[id=0].detail.doneEditingButtonTapped", function(s)
      s.path[1].detail.destination = nil
      s.path[1].detail.syncUp.title = "Blob"
    end):finish()
  end)

  it("recording", function()
    local syncUp = SyncUp {
      id = uuid(0xe0),
      attendees = { Attendee(uuid(0xa1)), Attendee(uuid(0xa2)), Attendee(uuid(0xa3)) },
      duration = 6,
    }
    local store = relua.TestStore(SyncUps, {
      state = function(deps)
        return {
          path = { { id = 0, detail = SyncUpDetail.State(syncUp) }, { id = 1, record = RecordMeeting.State(syncUp) } },
          syncUpsList = SyncUpsList:initial(deps),
        }
      end,
      files = syncUpsFile { syncUp },
      deps = {
        date = 1234567890,
        clock = "immediate",
        speechClient = {
          authorizationStatus = function() return "authorized" end,
          requestAuthorization = function() return "authorized" end,
          startTask = function() return transcripts { "I completed the project" } end,
        },
        uuid = "incrementing",
      },
    })
    store:exhaustive(false)

    store:send("path[id=1].record.onTask")
    store:receive("path.popFrom")
    expect(#store:state("path")).to_be(1)
    store:assert(function(s)
      s.path[1].detail.syncUp.meetings = { Meeting(uuid(0), 1234567890, "I completed the project") }
    end)
  end)
end)

-- Not in TCA's suite: the app played as a user plays it in the REPL — the links the views would
-- be (syncUpTapped, meetingTapped), the recording's task, the live speech recognizer fed by posts.
describe("the app, played", function()
  it("opens a sync-up, records a meeting, ends it early and opens the meeting", function()
    local syncUp = SyncUp { id = uuid(0xe0), attendees = { Attendee(uuid(0xa1), "Blob") }, duration = 60, title = "Retro" }
    local store = relua.TestStore(SyncUps, {
      files = syncUpsFile { syncUp },
      deps = { clock = "test", date = 1234567890, speechClient = "live", uuid = "incrementing" },
    })

    store:send("syncUpTapped", 1, function(s)
      s.path[1] = { id = 0, detail = SyncUpDetail.State(syncUp) }
    end)
    store:send("path[id=0].detail.startMeetingButtonTapped")
    store:receive("path[id=0].detail.delegate.startMeeting", function(s)
      s.path[2] = { id = 1, record = RecordMeeting.State(syncUp) }
    end)

    store:send("path[id=1].record.onTask")    -- the recording's screen appeared
    store:post("speech", "We shipped it")
    store:receive("path[id=1].record.speechResult", "We shipped it", function(s)
      s.path[2].record.transcript = "We shipped it"
    end)
    store:advance(1)
    store:receive("path[id=1].record.timerTick", function(s)
      s.path[2].record.secondsElapsed = 1
    end)

    store:send("path[id=1].record.endMeetingButtonTapped", function(s)
      s.path[2].record.alert = RecordMeeting.Alert.endMeeting(true)
    end)
    local meeting = Meeting(uuid(0), 1234567890, "We shipped it")
    store:send("path[id=1].record.alert.confirmSave", function(s)
      s.path[2].record.alert = nil
      -- One place of the share asserted: the detail's and the list's copies follow.
      s.path[2].record.syncUp.meetings = { meeting, syncUp.meetings[1] }
    end)
    store:receive("path.popFrom", 1, function(s)
      s.path[2] = nil
    end)
    expect(store:state("syncUpsList.syncUps[1].meetings")).to_equal({ meeting })

    store:send("path[id=0].detail.meetingTapped", 1, function(s)
      s.path[2] = { id = 2, meeting = { meeting = meeting, syncUp = s.path[1].detail.syncUp } }
    end)
    expect(store:screens()).to_equal({ "", "path[id=0].detail", "path[id=2].meeting" })
  end)
end)

-- What a wrong expectation of this app's tests reads like.
describe("failures", function()
  local function failure(fn)
    local ok, err = pcall(fn)
    expect(ok).to_be(false)
    return tostring(err)
  end

  it("a saved edit expected wrong shows the diff of the shared sync-up", function()
    local syncUp = Models.mock()
    local store = relua.TestStore(SyncUpDetail, { state = SyncUpDetail.State(syncUp) })
    store:send("editButtonTapped", function(s) s.destination = { edit = SyncUpForm.State(syncUp) } end)
    store:send("destination.edit.binding.syncUp.title", "Retro", function(s) s.destination.edit.syncUp.title = "Retro" end)
    local message = failure(function()
      store:send("doneEditingButtonTapped", function(s)
        s.destination = nil
        s.syncUp.title = "Retrospective"
      end)
    end)
    expect(message).to_contain("A state change does not match expectation")
    expect(message).to_contain('−     title = "Retrospective",')
    expect(message).to_contain('+     title = "Retro",')
  end)

  it("a recording that dismissed itself refuses a later tap", function()
    local store = relua.TestStore(RecordMeeting, {
      state = RecordMeeting.State(Models.mock()),
      deps = { clock = "test" },
    })
    store:send("onTask")
    store:send("endMeetingButtonTapped", function(s) s.alert = RecordMeeting.Alert.endMeeting(true) end)
    store:send("alert.confirmDiscard", function(s) s.alert = nil end)
    expect(failure(function() store:send("nextButtonTapped") end))
      .to_contain("Can't send action to dismissed test store: nextButtonTapped. (The store dismissed itself: dismiss() at ")
  end)

  it("a denied recognizer starts no meeting: the delegate action never comes", function()
    local store = relua.TestStore(SyncUpDetail, { state = SyncUpDetail.State(Models.mock()) })
    store:send("startMeetingButtonTapped", function(s)
      s.destination = { alert = SyncUpDetail.Alert.speechRecognitionDenied }
    end)
    expect(failure(function() store:receive("delegate.startMeeting") end))
      .to_contain("Expected to receive an action matching delegate.startMeeting, but received none")
  end)
end)
