-- What a real TCA app's features say that the DSL could not (issue #34, gaps 4, 5 and 8), step
-- for step with a test store, as TCA's tests of the SyncUps app say it:
--   4. nested bindings: `binding.syncUp.title` (TCA's `$store.syncUp.title`);
--   5. action groups: `delegate = relua.group { startMeeting = {} }` (TCA's `case delegate(Delegate)`),
--      handled by the parent as "detail.delegate.startMeeting";
--   8. stack and destination kinds that are only state: `meeting = relua.stateOnly "Meeting"`
--      (TCA's `case meeting(Meeting, syncUp:)`).
local relua = require "relua"
local feature, on, Effect = relua.feature, relua.on, relua.Effect

-- The message of an error `fn` raises (without Lua's `file:line: ` before it).
local function failure(fn)
  local ok, err = pcall(fn)
  expect(ok).to_be(false)
  return (tostring(err):gsub("^[^:\n]+:%d+: ", ""))
end

-- SyncUpForm: the form edits one sync-up record through nested bindings.
local SyncUpForm = feature "SyncUpForm" {
  state = {
    syncUp = { id = 1, title = "", minutes = 5, seconds = 0.5, theme = { name = "bubblegum", dark = false }, attendees = {} },
    focus = "title",
  },
  actions = { addAttendeeButtonTapped = {} },
  bindable = { "syncUp", "focus" },
  reduce = on {
    addAttendeeButtonTapped = function(s)
      s.syncUp.attendees[#s.syncUp.attendees + 1] = { name = "" }
    end,
    -- A handler of a nested binding runs after the binding (TCA: `case .binding(\.syncUp.title)`).
    ["binding.syncUp.title"] = function(s)
      if s.syncUp.title == "boom" then error("a title that explodes") end
      s.focus = s.syncUp.title == "" and "title" or "attendee"
    end,
  },
}

describe("nested bindings (TCA's $store.syncUp.title)", function()
  it("set a field of a record below a bindable field, asserted like a top-level binding", function()
    local store = relua.TestStore(SyncUpForm)
    store:send("binding.syncUp.title", "Engineering", function(s)
      s.syncUp.title = "Engineering"
      s.focus = "attendee"
    end)
    store:send("binding.syncUp.theme.name", "orange", function(s) s.syncUp.theme.name = "orange" end)
    store:send("binding.syncUp.theme.dark", true, function(s) s.syncUp.theme.dark = true end)
    store:send("binding.syncUp.minutes", 10, function(s) s.syncUp.minutes = 10 end)
    -- A number field takes an integer and keeps being a float (as a top-level binding does).
    store:send("binding.syncUp.seconds", 2, function(s) s.syncUp.seconds = 2.0 end)
    expect(math.type(store:state("syncUp.seconds"))).to_be("float")
    -- A whole record is still bound at its top (TCA's $store.syncUp).
    store:send("binding.focus", "none", function(s) s.focus = "none" end)
  end)

  it("a wrong expectation fails with the usual diff", function()
    local store = relua.TestStore(SyncUpForm)
    local message = failure(function()
      store:send("binding.syncUp.theme.name", "orange", function(s) s.syncUp.theme.name = "poppy" end)
    end)
    expect(message).to_contain("A state change does not match expectation")
    expect(message).to_contain('−       name = "poppy"')
    expect(message).to_contain('+       name = "orange"')
  end)

  it("a path the state does not have is refused, naming the fields there; nothing changes", function()
    local store = relua.TestStore(SyncUpForm)
    expect(failure(function() store:send("binding.syncUp.titel", "x") end))
      .to_be("The reducer failed for this action: binding.syncUp.titel of SyncUpForm: state.syncUp has no field 'titel' (it has: attendees, id, minutes, seconds, theme, title)")
    expect(failure(function() store:send("binding.syncUp.theme.colour", "x") end))
      .to_be("The reducer failed for this action: binding.syncUp.theme.colour of SyncUpForm: state.syncUp.theme has no field 'colour' (it has: dark, name)")
    expect(failure(function() store:send("binding.syncUp.title.text", "x") end))
      .to_be('The reducer failed for this action: binding.syncUp.title.text of SyncUpForm: state.syncUp.title holds string "", not a record with fields')
    expect(failure(function() store:send("binding.syncUp.minutes", "ten") end))
      .to_be('The reducer failed for this action: binding.syncUp.minutes of SyncUpForm: state.syncUp.minutes holds integer 5, got string "ten"')
    expect(failure(function() store:send("binding.title.text", "x") end))
      .to_be("'binding.title.text': SyncUpForm binds only binding.focus, binding.syncUp")
    expect(failure(function() store:send("binding.syncUp.attendees[id=1].name", "x") end))
      .to_be("The reducer failed for this action: binding.syncUp.attendees[id=1].name of SyncUpForm: state.syncUp.attendees has no element with id 1 (it is empty)")
    expect(store:state("syncUp.title")).to_be("")
  end)

  it("is part of the send's transaction: a handler that raises undoes the binding", function()
    local store = relua.Store(SyncUpForm)
    expect(failure(function() store:send("binding.syncUp.title", "boom") end)).to_contain("a title that explodes")
    expect(store:state("syncUp.title")).to_be("")
    expect(store:state("focus")).to_be("title")
    -- A test store too: the failed send changed nothing, so the next one starts from the old state.
    local test = relua.TestStore(SyncUpForm)
    expect(failure(function() test:send("binding.syncUp.title", "boom") end)).to_contain("a title that explodes")
    expect(test:state("syncUp.title")).to_be("")
    test:send("binding.syncUp.title", "Retro", function(s)
      s.syncUp.title = "Retro"
      s.focus = "attendee"
    end)
  end)

  it("reach a child's record through the child's path", function()
    local Sheet = feature "Sheet" {
      state = {},
      actions = { editButtonTapped = {} },
      compose = { relua.presents("destination", { edit = SyncUpForm }) },
      reduce = on { editButtonTapped = function(s) s.destination = { edit = SyncUpForm:initial() } end },
    }
    local store = relua.TestStore(Sheet)
    store:send("editButtonTapped", function(s) s.destination = { edit = SyncUpForm:initial() } end)
    store:send("destination.edit.binding.syncUp.theme.name", "poppy", function(s)
      s.destination.edit.syncUp.theme.name = "poppy"
    end)
    store:send("destination.dismiss", function(s) s.destination = nil end)
  end)

  it("a handler may name a nested binding; an unknown one is refused when the store starts", function()
    local Bad = feature "Bad" {
      state = { item = { title = "" } },
      bindable = { "item" },
      reduce = on { ["binding.itm.title"] = function() end },
    }
    expect(failure(function() relua.TestStore(Bad) end))
      .to_contain("feature 'Bad': the handler 'binding.itm.title' matches no action; 'Bad' accepts: binding.item(value)")
  end)
end)

-- SyncUpDetail: its delegate actions tell the parent what to do (TCA's `Action.delegate(Delegate)`).
local SyncUpDetail = feature "SyncUpDetail" {
  state = { syncUp = { id = 1, title = "Engineering" }, sent = 0 },
  actions = {
    deleteButtonTapped = {},
    startMeetingButtonTapped = {},
    renameButtonTapped = "string",
    delegate = relua.group {
      deleteSyncUp = {},
      startMeeting = {},
      -- Groups nest: "delegate.edit.renamed", "New name".
      edit = relua.group { renamed = "string" },
    },
  },
  reduce = on {
    deleteButtonTapped = function() return Effect.send("delegate.deleteSyncUp") end,
    startMeetingButtonTapped = function() return Effect.send("delegate.startMeeting") end,
    renameButtonTapped = function(_, title) return Effect.send("delegate.edit.renamed", title) end,
    -- The feature may handle its own group's actions too.
    ["delegate.startMeeting"] = function(s) s.sent = s.sent + 1 end,
  },
}

local SyncUpsApp = feature "SyncUpsApp" {
  state = { detail = SyncUpDetail:initial(), log = {} },
  compose = { relua.scope("detail", SyncUpDetail) },
  reduce = on {
    ["detail.delegate.deleteSyncUp"] = function(s) s.log[#s.log + 1] = "deleted " .. s.detail.syncUp.id end,
    ["detail.delegate.startMeeting"] = function(s) s.log[#s.log + 1] = "meeting" end,
    ["detail.delegate.edit.renamed"] = function(s, title) s.detail.syncUp.title = title end,
  },
}

describe("action groups (TCA's case delegate(Delegate))", function()
  it("a child's delegate action is received and handled by the parent", function()
    local store = relua.TestStore(SyncUpsApp)
    store:send("detail.startMeetingButtonTapped")
    store:receive("detail.delegate.startMeeting", function(s)
      s.detail.sent = 1
      s.log = { "meeting" }
    end)
    store:send("detail.deleteButtonTapped")
    store:receive("detail.delegate.deleteSyncUp", function(s) s.log[2] = "deleted 1" end)
    store:send("detail.renameButtonTapped", "Design")
    store:receive("detail.delegate.edit.renamed", "Design", function(s) s.detail.syncUp.title = "Design" end)
  end)

  it("a group's action can be sent as any other, and a plain reduce sees its name", function()
    local seen = {}
    local Spy = feature "Spy" {
      actions = { delegate = relua.group { close = {} } },
      reduce = function(_, action) seen[#seen + 1] = action.name .. " " .. action.pattern end,
    }
    local store = relua.TestStore(Spy)
    store:send("delegate.close")
    expect(seen).to_equal({ "delegate.close delegate.close" })
  end)

  it("receiving another group action than the one sent fails, naming both", function()
    local store = relua.TestStore(SyncUpsApp)
    store:send("detail.deleteButtonTapped")
    local message = failure(function() store:receive("detail.delegate.startMeeting") end)
    expect(message).to_contain("detail.delegate.startMeeting")
    expect(message).to_contain("detail.delegate.deleteSyncUp")
  end)

  it("a group is not an action; a name it does not hold is refused with what it holds", function()
    local store = relua.TestStore(SyncUpsApp)
    expect(failure(function() store:send("detail.delegate") end))
      .to_be("'detail.delegate': 'delegate' is a group of SyncUpDetail's actions; it has: delegate.deleteSyncUp, delegate.edit.renamed(string), delegate.startMeeting")
    expect(failure(function() store:send("detail.delegate.start") end))
      .to_be("'detail.delegate.start': 'delegate' is a group of SyncUpDetail's actions; it has: delegate.deleteSyncUp, delegate.edit.renamed(string), delegate.startMeeting")
    expect(failure(function() store:send("detail.delegate.edit") end))
      .to_be("'detail.delegate.edit': 'delegate.edit' is a group of SyncUpDetail's actions; it has: delegate.edit.renamed(string)")
    expect(failure(function() store:send("detail.delegate.startMeeting.now") end))
      .to_be("'detail.delegate.startMeeting.now': 'delegate.startMeeting' is an action of SyncUpDetail, not a group")
    expect(failure(function() store:send("detail.delegate.edit.renamed", 5) end))
      .to_be("action 'detail.delegate.edit.renamed' of SyncUpsApp: expected string, got integer 5")
  end)

  it("lists its actions with their group's path in messages", function()
    local store = relua.TestStore(SyncUpDetail)
    expect(failure(function() store:send("nope") end))
      .to_be("SyncUpDetail has no action 'nope' (in 'nope'); it accepts: delegate.deleteSyncUp, delegate.edit.renamed(string), delegate.startMeeting, deleteButtonTapped, renameButtonTapped(string), startMeetingButtonTapped")
  end)

  it("is declared with relua.group, never a plain table; a handler for a name it lacks is refused", function()
    expect(failure(function() feature "F" { actions = { delegate = { startMeeting = {} } } } end))
      .to_be("feature 'F': action 'delegate': payload must be {} (none) or a type: integer, float, number, string, boolean, table, any, {T} (array of T), T? (optional); got table; a group of actions is relua.group { … }")
    expect(failure(function() feature "F" { actions = { delegate = relua.group { edit = relua.group { ["a b"] = {} } } } } end))
      .to_be("feature 'F': action names must be identifiers, got a b")
    expect(failure(function() feature "F" { actions = { delegate = relua.group { x = "integr" } } } end))
      .to_contain("feature 'F': action 'delegate.x': payload must be {} (none) or a type")
    expect(failure(function() relua.group {} end))
      .to_be("relua.group: expected a table of actions { name = {} or a payload type or relua.group {…} }, got an empty table")
    local Child = feature "Child" { actions = { delegate = relua.group { done = {} } } }
    expect(failure(function()
      relua.TestStore(feature "Parent" {
        state = { child = {} },
        compose = { relua.scope("child", Child) },
        reduce = on { ["child.delegate.finished"] = function() end },
      })
    end)).to_contain("feature 'Parent': the handler 'child.delegate.finished' matches no action")
    expect(failure(function()
      feature "Parent" { actions = { child = relua.group { done = {} } }, compose = { relua.scope("child", Child) } }
    end)).to_be("feature 'Parent': 'child' is both an action and a child")
  end)
end)

-- A meeting screen is only state in the stack (TCA's `case meeting(Meeting, syncUp:)`); the
-- detail is a feature. Its record sheet is a destination kind that is only state too.
local Detail = feature "Detail" {
  state = { title = "" },
  actions = { startMeetingButtonTapped = {} },
}

local AppStack = feature "AppStack" {
  state = { path = {} },
  actions = { openDetail = "string", openMeeting = "string", showRecord = {} },
  compose = {
    relua.stack("path", { detail = Detail, meeting = relua.stateOnly "Meeting" }),
    relua.presents("destination", { record = relua.stateOnly }),
  },
  reduce = on {
    openDetail = function(s, title) relua.push(s.path, { detail = { title = title } }) end,
    openMeeting = function(s, title) relua.push(s.path, { meeting = { title = title, transcript = "" } }) end,
    showRecord = function(s) s.destination = { record = { seconds = 60 } } end,
    ["path.detail.startMeetingButtonTapped"] = function(s)
      relua.push(s.path, { meeting = { title = s.path[#s.path].detail.title, transcript = "" } })
    end,
  },
}

describe("stack and destination kinds that are only state (relua.stateOnly)", function()
  it("are pushed, viewed and popped as any kind, without a feature of their own", function()
    local store = relua.TestStore(AppStack)
    store:send("openDetail", "Engineering", function(s) s.path = { { id = 0, detail = { title = "Engineering" } } } end)
    store:send("path[id=0].detail.startMeetingButtonTapped", function(s)
      s.path[2] = { id = 1, meeting = { title = "Engineering", transcript = "" } }
    end)
    expect(store:screens()).to_equal({ "", "path[id=0].detail", "path[id=1].meeting" })
    store:send("path.popFrom", 1, function(s) s.path[2] = nil end)
    -- Pushed from outside with its state (TCA's .push(id:state:)).
    store:send("path.push", { id = 5, meeting = { title = "Design", transcript = "Hi" } }, function(s)
      s.path[2] = { id = 5, meeting = { title = "Design", transcript = "Hi" } }
    end)
    expect(store:state("path[2].meeting.transcript")).to_be("Hi")
    store:send("path.popFrom", 0, function(s) s.path = {} end)
  end)

  it("has the view it is given, the text the REPL shows for its screen", function()
    local Viewed = feature "Viewed" {
      actions = { open = {} },
      compose = { relua.stack("path", {
        meeting = relua.stateOnly { name = "Meeting", view = function(s) return "Meeting: " .. s.title end },
      }) },
      reduce = on { open = function(s) relua.push(s.path, { meeting = { title = "Retro" } }) end },
    }
    local store = relua.Store(Viewed)
    store:send("open")
    expect(store:view()).to_be("Meeting: Retro")
  end)

  it("show as screens named after the kind's name", function()
    local store = relua.Store(AppStack)
    store:send("openMeeting", "Retro")
    local screens = store:screens()
    expect(screens[2].feature).to_be("Meeting")
    expect(screens[2].place).to_be("path[id=0].meeting")
    expect(screens[2].state).to_equal({ title = "Retro", transcript = "" })
    store:send("showRecord")
    expect(store:screens()[3].feature).to_be("record")
  end)

  it("a destination kind that is only state is presented and dismissed", function()
    local store = relua.TestStore(AppStack)
    store:send("showRecord", function(s) s.destination = { record = { seconds = 60 } } end)
    store:send("destination.dismiss", function(s) s.destination = nil end)
    local Single = feature "Single" {
      actions = { show = {} },
      compose = { relua.presents("meeting", relua.stateOnly) },
      reduce = on { show = function(s) s.meeting = { title = "Retro" } end },
    }
    local single = relua.TestStore(Single)
    single:send("show", function(s) s.meeting = { title = "Retro" } end)
    expect(failure(function() single:send("meeting.start") end))
      .to_be("'meeting.start': meeting is only state (relua.stateOnly \"meeting\"): it takes no actions")
    single:send("meeting.dismiss", function(s) s.meeting = nil end)
  end)

  it("sending an action to one is an error naming the kind; nothing changes", function()
    local store = relua.TestStore(AppStack)
    store:send("openMeeting", "Retro", function(s) s.path = { { id = 0, meeting = { title = "Retro", transcript = "" } } } end)
    expect(failure(function() store:send("path[id=0].meeting.endMeeting") end))
      .to_be("'path[id=0].meeting.endMeeting': path[id=0].meeting is only state (relua.stateOnly \"Meeting\"): it takes no actions")
    expect(failure(function() store:send("path[id=0].meeting") end))
      .to_be("'path[id=0].meeting': path[id=0].meeting is only state (relua.stateOnly \"Meeting\"): it takes no actions")
    expect(failure(function() store:send("path.push", { meeting = "Retro" }) end))
      .to_contain("the meeting state does not fit Meeting: state: Meeting's state must be a table with named fields, got a string; nothing was pushed")
    expect(failure(function() store:send("destination.record.save") end))
      .to_be("'destination.record.save': destination.record is only state (relua.stateOnly \"record\"): it takes no actions")
    expect(failure(function() relua.TestStore(feature "P" {
      compose = { relua.stack("path", { meeting = relua.stateOnly }) },
      reduce = on { ["path.meeting.tick"] = function() end },
    }) end)).to_contain("feature 'P': the handler 'path.meeting.tick' matches no action")
  end)

  it("is written relua.stateOnly or relua.stateOnly \"Name\"", function()
    expect(tostring(relua.stateOnly)).to_be("relua.stateOnly")
    expect(tostring(relua.stateOnly "Meeting")).to_be('relua.stateOnly "Meeting"')
    expect(failure(function() relua.stateOnly(5) end))
      .to_be("relua.stateOnly: expected a name (a string) or { name = …, view = function(state) … end }, got number")
    expect(failure(function() relua.stateOnly { name = "Meeting", veiw = print } end))
      .to_be("relua.stateOnly: unknown field 'veiw' (known: name, view)")
    expect(failure(function() relua.stateOnly { view = print } end))
      .to_be("relua.stateOnly: expected a name (a non-empty string), got nil")
    expect(failure(function() relua.stack("path", { meeting = 5 }) end))
      .to_be("relua.stack('path', kinds): 'meeting' must be a feature, a function returning one, relua.alert{…} or relua.stateOnly, got number")
  end)
end)

-- The three together, as TCA's SyncUps app has them (AppFeatureTests): a list, a detail pushed on
-- the stack whose delegate tells the app what to do, and a meeting that is only state.
describe("SyncUps: a detail's delegate pushes a meeting that is only state, or deletes the sync-up", function()
  local DetailScreen = feature "Detail" {
    state = { syncUp = { id = 0, title = "" } },
    bindable = { "syncUp" },
    actions = {
      startMeetingButtonTapped = {},
      deleteButtonTapped = {},
      delegate = relua.group { startMeeting = {}, deleteSyncUp = "integer" },
    },
    reduce = on {
      startMeetingButtonTapped = function() return Effect.send("delegate.startMeeting") end,
      deleteButtonTapped = function(s, _, deps)
        local id = s.syncUp.id
        return Effect.run(function(send)
          send("delegate.deleteSyncUp", id)
          deps.dismiss()
        end)
      end,
    },
  }
  local App = feature "App" {
    state = { syncUps = { { id = 7, title = "Design" } }, path = {} },
    actions = { syncUpTapped = "integer" },
    compose = { relua.stack("path", { detail = DetailScreen, meeting = relua.stateOnly "Meeting" }) },
    reduce = on {
      syncUpTapped = function(s, index) relua.push(s.path, { detail = { syncUp = copy(s.syncUps[index]) } }) end,
      ["path.detail.delegate.startMeeting"] = function(s, _, _, id)
        for _, element in ipairs(s.path) do
          if element.id == id then relua.push(s.path, { meeting = { syncUp = copy(element.detail.syncUp), transcript = "" } }) end
        end
      end,
      ["path.detail.delegate.deleteSyncUp"] = function(s, syncUpID)
        for index, syncUp in ipairs(s.syncUps) do
          if syncUp.id == syncUpID then table.remove(s.syncUps, index) end
        end
      end,
    },
  }

  it("edits the title in the detail, then starts a meeting", function()
    local store = relua.TestStore(App)
    store:send("syncUpTapped", 1, function(s) s.path = { { id = 0, detail = { syncUp = { id = 7, title = "Design" } } } } end)
    store:send("path[id=0].detail.binding.syncUp.title", "Retro", function(s) s.path[1].detail.syncUp.title = "Retro" end)
    store:send("path[id=0].detail.startMeetingButtonTapped")
    store:receive("path[id=0].detail.delegate.startMeeting", function(s)
      s.path[2] = { id = 1, meeting = { syncUp = { id = 7, title = "Retro" }, transcript = "" } }
    end)
    expect(store:screens()).to_equal({ "", "path[id=0].detail", "path[id=1].meeting" })
    expect(failure(function() store:send("path[id=1].meeting.endMeetingButtonTapped") end))
      .to_be("'path[id=1].meeting.endMeetingButtonTapped': path[id=1].meeting is only state (relua.stateOnly \"Meeting\"): it takes no actions")
    store:send("path.popFrom", 1, function(s) s.path[2] = nil end)
  end)

  it("deletes the sync-up, then the detail closes itself", function()
    local store = relua.TestStore(App)
    store:send("syncUpTapped", 1, function(s) s.path = { { id = 0, detail = { syncUp = { id = 7, title = "Design" } } } } end)
    store:send("path[id=0].detail.deleteButtonTapped")
    store:receive("path[id=0].detail.delegate.deleteSyncUp", 7, function(s) s.syncUps = {} end)
    store:receive("path.popFrom", 0, function(s) s.path = {} end)
    store:finish()
  end)
end)
