-- Issue #34, gaps 3 and 7, as a TCA app's tests meet them (the SyncUps app: a meeting made with a
-- UUID, a recording screen whose timer runs while it is shown), step for step and exhaustive,
-- with the failures a wrong test gets.
--
-- 3. A test store's initial state is built under the test's dependencies (TCA evaluates
--    `initialState` inside `withDependencies`): `state = function(deps) … end`, and a feature's
--    own `state(deps)` alike; `uuid = { incrementing = n }` starts the UUIDs at n.
-- 7. A screen's lifecycle (TCA's `.task { await store.send(.onTask).finish() }`): `task = "onTask"`
--    names the action a host sends when the feature's screen appears; its effects end with the
--    screen. A test sends it by hand, as a TCA test does.
local relua = require "relua"
local feature, on, Effect = relua.feature, relua.on, relua.Effect

-- MARK: 3. The initial state under the test's dependencies

local Meeting = feature "Meeting" {
  state = function(deps) return { id = deps.uuid(), date = deps.date(), transcript = "" } end,
  actions = { restart = {}, transcribed = "string" },
  reduce = on {
    restart = function(s, _, deps) s.id = deps.uuid(); s.transcript = "" end,
    transcribed = function(s, text) s.transcript = text end,
  },
}

describe("a test store's state built with the test's dependencies", function()
  it("state = function(deps): the test's uuid and date, the store going on from there", function()
    local store = relua.TestStore(Meeting, {
      state = function(deps) return { id = deps.uuid(), date = deps.date(), transcript = "Hello" } end,
      deps = { uuid = "incrementing", date = 1234567890 },
    })
    expect(store:state()).to_equal({ id = relua.uuid(0), date = 1234567890, transcript = "Hello" })
    store:send("restart", function(s) s.id = relua.uuid(1); s.transcript = "" end)
    store:send("restart", function(s) s.id = relua.uuid(2) end)
  end)

  it("the feature's own state(deps) runs under the test's dependencies too", function()
    local store = relua.TestStore(Meeting, { deps = { uuid = "incrementing", date = 0 } })
    expect(store:state()).to_equal({ id = relua.uuid(0), date = 0, transcript = "" })
    store:send("restart", function(s) s.id = relua.uuid(1) end)
  end)

  it("a parent's state function builds its child's with Feature:initial(deps)", function()
    local SyncUp = feature "SyncUp" {
      state = function(deps) return { title = "Design", meeting = Meeting:initial(deps) } end,
      compose = { relua.scope("meeting", Meeting) },
    }
    local store = relua.TestStore(SyncUp, {
      state = function(deps)
        local s = SyncUp:initial(deps)
        s.title = "Engineering"
        return s
      end,
      deps = { uuid = "incrementing", date = 0 },
    })
    expect(store:state()).to_equal({ title = "Engineering", meeting = { id = relua.uuid(0), date = 0, transcript = "" } })
    store:send("meeting.restart", function(s) s.meeting.id = relua.uuid(1) end)
  end)

  it("uuid = { incrementing = n } starts at relua.uuid(n)", function()
    local store = relua.TestStore(Meeting, { deps = { uuid = { incrementing = 5 }, date = 0 } })
    expect(store:state().id).to_be(relua.uuid(5))
    store:send("restart", function(s) s.id = relua.uuid(6) end)
  end)

  it("a relua.Store takes a state function too, with its own dependencies", function()
    local store = relua.Store(Meeting, {
      state = function(deps) return { id = deps.uuid(), date = 0, transcript = "" } end,
      deps = { uuid = { incrementing = 41 } },
    })
    expect(store:state().id).to_be(relua.uuid(41))
    store:send("restart")
    expect(store:state().id).to_be(relua.uuid(42))
  end)

  -- TCA's TestStoreTests.testDependenciesEarlyBinding: the state's init reads the date, the
  -- expectations read it too, all under the test's dependencies.
  local port = require "Tests.Support.TCAPort"("TCA TestStoreTests")
  port("testDependenciesEarlyBinding", function()
    local Feature = feature "Feature" {
      state = function(deps) return { count = 0, date = deps.date() } end,
      actions = { tap = {}, response = "integer" },
      reduce = on {
        tap = function(s)
          s.count = s.count + 1
          return Effect.run(function(send) send("response", 42) end)
        end,
        response = function(s, number, deps) s.count = number; s.date = deps.date() end,
      },
    }
    local store = relua.TestStore(Feature, { deps = { date = 1234567890 } })
    store:send("tap", function(s)
      s.count = 1
      s.date = relua.deps.date()
    end)
    store:receive("response", 42, function(s)
      s.count = 42
      s.date = relua.deps.date()
    end)
  end)

  it("an expectation reads the test's dependencies: one it did not give fails, naming it", function()
    local store = relua.TestStore(Meeting, { state = { id = relua.uuid(7), date = 0, transcript = "" } })
    expect(function() store:send("transcribed", "Hi", function(s) s.transcript = "Hi"; s.date = relua.deps.date() end) end)
      .to_error("Unimplemented dependency: date")
  end)

  it("fails: a wrong expectation of the next UUID shows the diff", function()
    local store = relua.TestStore(Meeting, {
      state = function(deps) return { id = deps.uuid(), date = 0, transcript = "" } end,
      deps = { uuid = "incrementing" },
    })
    expect(function() store:send("restart", function(s) s.id = relua.uuid(0) end) end).to_error(
      'A state change does not match expectation: …\n\n      {\n        … (1 unchanged)\n    −   id = "00000000-0000-0000-0000-000000000000",\n    +   id = "00000000-0000-0000-0000-000000000001",')
  end)

  it("fails: a dependency the state function reads and the test did not give is named", function()
    local ok, err = pcall(relua.TestStore, Meeting, { state = function(deps) return { id = deps.uuid() } end })
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("Unimplemented dependency: uuid (the test's state(deps) reads it; give it in deps = { … })")
    ok, err = pcall(relua.TestStore, Meeting, { deps = { uuid = "incrementing" } })
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("Unimplemented dependency: date (feature 'Meeting' reads it in state(deps); give it in deps = { … })")
  end)

  it("fails: a state function returning no table, or a state of the wrong shape", function()
    local ok, err = pcall(relua.TestStore, Meeting, { state = function() return 5 end })
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("state = function(deps): must return a table (the state of Meeting), got number")
    local Parent = feature "Parent" { state = { rows = {} }, compose = { relua.forEach("rows", Meeting) } }
    ok, err = pcall(relua.TestStore, Parent, { state = function() return { rows = { { id = 1 }, { id = 1 } } } end })
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("the id 1 is used twice")
  end)

  it("fails: uuid = { incrementing = n } takes an integer >= 0 and nothing else", function()
    for _, bad in ipairs({ { incrementing = -1 }, { incrementing = "5" }, { incrementing = 1, step = 2 } }) do
      local ok, err = pcall(relua.TestStore, Meeting, { deps = { uuid = bad, date = 0 } })
      expect(ok).to_be(false)
      expect(tostring(err)).to_contain("deps.uuid: { incrementing = n } takes the first UUID's number, an integer >= 0 (relua.uuid(n)), and nothing else")
    end
  end)
end)

-- MARK: 7. A screen's lifecycle

-- TCA's SyncUps RecordMeeting: `onTask` starts the timer, which ticks while the screen is shown.
local RecordMeeting = feature "RecordMeeting" {
  state = { secondsElapsed = 0 },
  actions = { onTask = {}, timerTick = {} },
  task = "onTask",
  reduce = on {
    onTask = function(_, _, deps)
      return Effect.run(function(send)
        for _ in deps.clock.timer(1) do send("timerTick") end
      end)
    end,
    timerTick = function(s) s.secondsElapsed = s.secondsElapsed + 1 end,
  },
}

local SyncUps = feature "SyncUps" {
  state = { path = {} },
  actions = { startMeeting = {} },
  compose = { relua.stack("path", { record = RecordMeeting }) },
  reduce = on {
    startMeeting = function(s) relua.push(s.path, { record = { secondsElapsed = 0 } }) end,
  },
}

describe("a screen's task (TCA's .task { await store.send(.onTask).finish() })", function()
  it("a pushed screen's task: sent when it appears, its effect cancelled when it is popped", function()
    local store = relua.TestStore(SyncUps, { deps = { clock = "test" } })
    store:send("startMeeting", function(s) s.path[1] = { id = 0, record = { secondsElapsed = 0 } } end)
    store:send("path[id=0].record.onTask")  -- the screen appeared: its view's .task sends this
    store:advance(1)
    store:receive("path[id=0].record.timerTick", function(s) s.path[1].record.secondsElapsed = 1 end)
    store:advance(1)
    store:receive("path[id=0].record.timerTick", function(s) s.path[1].record.secondsElapsed = 2 end)
    store:send("path.popFrom", 0, function(s) s.path = {} end)  -- popped: the timer is cancelled
    store:advance(10)                                           -- nothing ticks any more
    store:finish()
  end)

  it("the root screen's task: the send's task cancelled when the screen goes (TCA's task.cancel())", function()
    local store = relua.TestStore(RecordMeeting, { deps = { clock = "test" } })
    local task = store:send("onTask")
    store:advance(1)
    store:receive("timerTick", function(s) s.secondsElapsed = 1 end)
    task:cancel()
    expect(task:isCancelled()).to_be(true)
    store:advance(5)
    store:finish()
  end)

  it("a task's effect is the screen's alone: a sibling screen's goes on", function()
    local store = relua.TestStore(SyncUps, { deps = { clock = "test" } })
    store:send("startMeeting", function(s) s.path[1] = { id = 0, record = { secondsElapsed = 0 } } end)
    store:send("path[id=0].record.onTask")
    store:send("startMeeting", function(s) s.path[2] = { id = 1, record = { secondsElapsed = 0 } } end)
    store:send("path[id=1].record.onTask")
    store:advance(1)
    store:receive("path[id=0].record.timerTick", function(s) s.path[1].record.secondsElapsed = 1 end)
    store:receive("path[id=1].record.timerTick", function(s) s.path[2].record.secondsElapsed = 1 end)
    store:send("path.popFrom", 1, function(s) s.path[2] = nil end)
    store:advance(1)
    store:receive("path[id=0].record.timerTick", function(s) s.path[1].record.secondsElapsed = 2 end)
    store:send("path.popFrom", 0, function(s) s.path = {} end)
    store:finish()
  end)

  it("fails: a screen still shown at the end leaves its task running", function()
    local store = relua.TestStore(SyncUps, { deps = { clock = "test" } })
    store:send("startMeeting", function(s) s.path[1] = { id = 0, record = { secondsElapsed = 0 } } end)
    store:send("path[id=0].record.onTask")
    expect(function() store:finish() end)
      .to_error("An effect returned for this action is still running. It must complete before the end of the test.")
    store:skipInFlightEffects()
  end)

  it("fails: a tick not received before the pop must be handled first", function()
    local store = relua.TestStore(SyncUps, { deps = { clock = "test" } })
    store:send("startMeeting", function(s) s.path[1] = { id = 0, record = { secondsElapsed = 0 } } end)
    store:send("path[id=0].record.onTask")
    store:advance(1)
    expect(function() store:send("path.popFrom", 0, function(s) s.path = {} end) end)
      .to_error("Must handle 1 received action before sending an action: …\n\nUnhandled actions:\n  path[id=0].record.timerTick")
    -- As in TCA, the send went on (the pop is done, its timer cancelled) and the tick was dropped.
    expect(#store:state().path).to_be(0)
    store:finish()
  end)

  it("fails: a tick expected after the pop never comes", function()
    local store = relua.TestStore(SyncUps, { deps = { clock = "test" } })
    store:send("startMeeting", function(s) s.path[1] = { id = 0, record = { secondsElapsed = 0 } } end)
    store:send("path[id=0].record.onTask")
    store:send("path.popFrom", 0, function(s) s.path = {} end)
    store:advance(1)
    expect(function() store:receive("path[id=0].record.timerTick") end)
      .to_error("Expected to receive an action matching path[id=0].record.timerTick, but received none: no effect is running to send it.")
  end)

  it("a feature's task is one of its own actions without a payload: the declaration says so", function()
    local function declare(spec) return pcall(function() return feature "Screen" (spec) end) end
    local ok, err = declare({ actions = { load = {} }, task = "onTask" })
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("feature 'Screen': task = \"onTask\" is not one of its actions; declare it: actions = { onTask = {} }")
    ok, err = declare({ actions = { onTask = "integer" }, task = "onTask" })
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("feature 'Screen': task = \"onTask\": the action takes a payload (integer), but a screen appearing sends none")
    ok, err = declare({ actions = { onTask = {} }, task = true })
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("feature 'Screen': 'task' must name one of its actions (the one sent when its screen appears), got boolean")
    ok = declare({ actions = { onTask = "integer?" }, task = "onTask" })
    expect(ok).to_be(true)
  end)
end)
