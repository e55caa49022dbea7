-- Issue #34, gaps 6, 10 and 13, in the style of TCA's tests: concurrency inside one effect
-- (`relua.taskGroup`, TCA's `withTaskGroup` in `.run`), named effects (`Effect.run(fn, { name = … })`,
-- TCA 1.23's `Effect.run(name:)`), and what relua keeps of the operators TCA 1.25 deprecates.
local relua = require "relua"
local feature, on, Effect = relua.feature, relua.on, relua.Effect

relua.dependency "speech" {
  live = { requestAuthorization = function() return "denied" end },
}

-- SyncUps' RecordMeeting, cut to its effect: the timer starts once the authorization request
-- returns, while the transcript stream runs beside it; the effect goes on when both are done.
local closed = {}
local function closing(name)
  return setmetatable({}, { __close = function() closed[#closed + 1] = name end })
end

local RecordMeeting = feature "RecordMeeting" {
  state = { secondsElapsed = 0, transcript = "", finished = false, failure = "" },
  actions = { onTask = {}, timerTick = {}, speechResult = "string", finished = {}, failed = "string", endMeeting = {} },
  reduce = on {
    onTask = function(_, _, deps)
      return Effect.run(function(send)
        local authorization = deps.speech.requestAuthorization()
        relua.taskGroup(function(group)
          if authorization == "authorized" then
            group:spawn(function()
              local speech <close> = closing("speech")  -- luacheck: ignore 211/speech (used by being closed)
              for text in deps.notifications("speech") do
                if text == "." then break end
                if text == "boom" then error("speech recognition failed") end
                send("speechResult", text)
              end
            end)
          end
          group:spawn(function()
            local timer <close> = closing("timer")  -- luacheck: ignore 211/timer (used by being closed)
            for tick in deps.clock.timer(1) do
              send("timerTick")
              if tick == 3 then break end
            end
          end)
        end)
        send("finished")
      end, { name = "recording" }):catch(function(message, send) send("failed", message) end):cancellable("recording")
    end,
    timerTick = function(s) s.secondsElapsed = s.secondsElapsed + 1 end,
    speechResult = function(s, text) s.transcript = s.transcript .. text end,
    finished = function(s) s.finished = true end,
    failed = function(s, message) s.failure = message end,
    endMeeting = function() return Effect.cancel("recording") end,
  },
}

local function authorizing(answer)
  return {
    clock = "test",
    speech = { requestAuthorization = function() relua.deps.clock.sleep(0.5) return answer end },
  }
end

describe("relua.taskGroup: concurrency inside one effect (TCA's withTaskGroup)", function()
  before_each(function() closed = {} end)

  it("the timer starts once authorization returns, the transcript streams beside it, the effect goes on when both end", function()
    local store = relua.TestStore(RecordMeeting, { deps = authorizing("authorized") })
    store:send("onTask")
    store:advance(0.5)                   -- authorized: both children start
    expect(store:post("speech", "Hello")).to_be(1)
    store:receive("speechResult", "Hello", function(s) s.transcript = "Hello" end)
    store:advance(1)
    store:receive("timerTick", function(s) s.secondsElapsed = 1 end)
    expect(store:post("speech", " world")).to_be(1)
    store:receive("speechResult", " world", function(s) s.transcript = "Hello world" end)
    expect(store:post("speech", ".")).to_be(1)   -- the transcript ends; the timer goes on
    expect(closed).to_equal({ "speech" })
    store:advance(2)
    store:receive("timerTick", function(s) s.secondsElapsed = 2 end)
    store:receive("timerTick", function(s) s.secondsElapsed = 3 end)
    store:receive("finished", function(s) s.finished = true end)
    expect(closed).to_equal({ "speech", "timer" })
    store:finish()
  end)

  it("without authorization only the timer runs", function()
    local store = relua.TestStore(RecordMeeting, { deps = authorizing("denied") })
    store:send("onTask")
    store:advance(0.5)
    expect(store:post("speech", "Hello")).to_be(0)
    store:advance(3)
    store:receive("timerTick", function(s) s.secondsElapsed = 1 end)
    store:receive("timerTick", function(s) s.secondsElapsed = 2 end)
    store:receive("timerTick", function(s) s.secondsElapsed = 3 end)
    store:receive("finished", function(s) s.finished = true end)
  end)

  it("nothing of the group starts before authorization returns", function()
    local store = relua.TestStore(RecordMeeting, { deps = authorizing("authorized") })
    store:send("onTask")
    expect(store:post("speech", "early")).to_be(0)
    store:advance(0.4)
    store:send("endMeeting")
    expect(closed).to_equal({})
  end)

  it("cancelling the effect cancels its children: their <close> variables run, nothing more is sent", function()
    local store = relua.TestStore(RecordMeeting, { deps = authorizing("authorized") })
    store:send("onTask")
    store:advance(1.5)
    store:receive("timerTick", function(s) s.secondsElapsed = 1 end)
    store:send("endMeeting")
    table.sort(closed)
    expect(closed).to_equal({ "speech", "timer" })
    store:advance(10)
    expect(store:post("speech", "late")).to_be(0)
  end)

  it("a child's error cancels its siblings and reaches the effect with the child's file:line", function()
    local store = relua.TestStore(RecordMeeting, { deps = authorizing("authorized") })
    store:send("onTask")
    store:advance(1.5)
    store:receive("timerTick", function(s) s.secondsElapsed = 1 end)
    expect(store:post("speech", "boom")).to_be(1)
    -- The sibling is cancelled (its <close> runs); the child that raised keeps its stack, as a
    -- coroutine that ends with an error does in Lua (and an Effect.run that raises).
    expect(closed).to_equal({ "timer" })
    store:receive("failed", function(s)
      s.failure = "Scripts/Tests/real_apps_effects_test.lua:31: speech recognition failed"
    end)
    store:advance(10)
  end)

  it("children count as effects of their own: a receive only the test can answer fails at once, naming why", function()
    local store = relua.TestStore(RecordMeeting, { deps = authorizing("authorized") })
    store:send("onTask")
    store:advance(0.5)
    local ok, err = pcall(store.receive, store, "timerTick")
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("Expected to receive an action matching timerTick, but received none: every effect still running waits for the test (asleep on the test clock: advance it; or on a stream the test feeds).")
    store:send("endMeeting")
  end)

  it("a receive waits for a child on a live dependency while its sibling waits for a post", function()
    local F = feature "F" {
      state = { done = false },
      actions = { go = {}, done = {} },
      reduce = on {
        go = function(_, _, deps)
          return Effect.run(function(send)
            relua.taskGroup(function(group)
              group:spawn(function() for _ in deps.notifications("never") do end end)
              group:spawn(function()
                deps.clock.sleep(0.05)     -- a live clock: only a task can wait for it
                send("done")
              end)
            end)
          end)
        end,
        done = function(s) s.done = true end,
      },
    }
    local store = relua.TestStore(F, { deps = { clock = "live" } })
    local task = store:send("go")
    store:receive("done", function(s) s.done = true end)
    task:cancel()
  end)

  it("a child that awaits is waited for, and children run in the order spawned, each to its first await", function()
    local F = feature "F" {
      state = { log = {} },
      actions = { go = {}, note = "string" },
      reduce = on {
        go = function(_, _, deps)
          return Effect.run(function(send)
            local results = {}
            relua.taskGroup(function(group)
              for i = 1, 3 do
                group:spawn(function()
                  send("note", "start " .. i)
                  deps.clock.sleep(4 - i)
                  results[i] = i * 10
                  send("note", "end " .. i)
                end)
              end
              send("note", "spawned")   -- children start when the effect suspends
            end)
            send("note", "all " .. table.concat(results, ","))
          end)
        end,
        note = function(s, text) s.log[#s.log + 1] = text end,
      },
    }
    local store = relua.TestStore(F, { deps = { clock = "test" } })
    store:send("go")
    store:receive("note", "spawned", function(s) s.log = { "spawned" } end)
    store:receive("note", "start 1", function(s) s.log = { "spawned", "start 1" } end)
    store:receive("note", "start 2", function(s) s.log = { "spawned", "start 1", "start 2" } end)
    store:receive("note", "start 3", function(s) s.log = { "spawned", "start 1", "start 2", "start 3" } end)
    store:advance(3)
    store:receive("note", "end 3", function(s) s.log[5] = "end 3" end)
    store:receive("note", "end 2", function(s) s.log[6] = "end 2" end)
    store:receive("note", "end 1", function(s) s.log[7] = "end 1" end)
    store:receive("note", "all 10,20,30", function(s) s.log[8] = "all 10,20,30" end)
  end)

  it("groups nest: a child's own group is cancelled with it", function()
    local F = feature "F" {
      state = { n = 0 },
      actions = { go = {}, tick = {}, stop = {} },
      reduce = on {
        go = function(_, _, deps)
          return Effect.run(function(send)
            relua.taskGroup(function(outer)
              outer:spawn(function()
                relua.taskGroup(function(inner)
                  inner:spawn(function() for _ in deps.clock.timer(1) do send("tick") end end)
                end)
              end)
            end)
          end):cancellable("go")
        end,
        tick = function(s) s.n = s.n + 1 end,
        stop = function() return Effect.cancel("go") end,
      },
    }
    local store = relua.TestStore(F, { deps = { clock = "test" } })
    store:send("go")
    store:advance(2)
    store:receive("tick", function(s) s.n = 1 end)
    store:receive("tick", function(s) s.n = 2 end)
    store:send("stop")
    store:advance(5)
  end)

  it("an effect whose children still run at the end fails the test, as a still-running effect does", function()
    local store = relua.TestStore(RecordMeeting, { deps = authorizing("authorized") })
    store:send("onTask")
    store:advance(0.5)
    local ok, err = pcall(store.finish, store)
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain('An effect named "recording" (Scripts/Tests/real_apps_effects_test.lua:23) is still running.')
  end)

  it("works in a run hosted in a task (inside a concatenation)", function()
    local F = feature "F" {
      state = { log = {} },
      actions = { go = {}, note = "string" },
      reduce = on {
        go = function(_, _, deps)
          local group = Effect.run(function(send)
            relua.taskGroup(function(g)
              g:spawn(function() deps.clock.sleep(2) send("note", "slow") end)
              g:spawn(function() deps.clock.sleep(1) send("note", "fast") end)
            end)
          end)
          return Effect.concatenate(group, Effect.send("note", "after"))
        end,
        note = function(s, text) s.log[#s.log + 1] = text end,
      },
    }
    local store = relua.TestStore(F, { deps = { clock = "test" } })
    store:send("go")
    store:advance(1)
    store:receive("note", "fast", function(s) s.log = { "fast" } end)
    store:advance(1)
    store:receive("note", "slow", function(s) s.log = { "fast", "slow" } end)
    store:receive("note", "after", function(s) s.log = { "fast", "slow", "after" } end)
  end)

  it("children count toward the store's limit of effects in flight", function()
    local F = feature "F" {
      state = {},
      actions = { go = {}, failed = "string" },
      reduce = on {
        go = function(_, _, deps)
          return Effect.run(function()
            relua.taskGroup(function(group)
              for _ = 1, 5 do group:spawn(function() deps.clock.sleep(1) end) end
            end)
          end):catch(function(message, send) send("failed", message) end)
        end,
        failed = function() end,
      },
    }
    local store = relua.TestStore(F, { deps = { clock = "test" }, limits = { effectsInFlight = 3 } })
    store:send("go")
    store:receive("failed", "Scripts/Tests/real_apps_effects_test.lua:278: relua.taskGroup: 3 effects and concurrent children are running, the most a store runs at once: no child was started (does a group spawn children without end?)")
  end)

  it("is an error outside an effect, and a group that ended takes no more children", function()
    local ok, err = pcall(relua.taskGroup, function() end)
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("relua.taskGroup: call it inside an Effect.run (its children are parts of the effect)")
    local F = feature "F" {
      state = { message = "" },
      actions = { go = {}, failed = "string" },
      reduce = on {
        go = function()
          return Effect.run(function()
            local kept
            relua.taskGroup(function(group) kept = group end)
            kept:spawn(function() end)
          end):catch(function(message, send) send("failed", message) end)
        end,
        failed = function(s, message) s.message = message end,
      },
    }
    local store = relua.TestStore(F)
    store:send("go")
    store:receive("failed", function(s)
      s.message = "Scripts/Tests/real_apps_effects_test.lua:302: relua.taskGroup: this group has ended: spawn its children inside relua.taskGroup's function or its children"
    end)
  end)
end)

describe("named effects (TCA's Effect.run(name:))", function()
  local function ticker(options)
    return feature "Ticker" {
      state = { n = 0 },
      actions = { start = {}, tick = {}, failed = "string" },
      reduce = on {
        start = function(_, _, deps)
          local made = Effect.run(function()
            deps.clock.sleep(1)
            error("lost the clock")
          end, options)
          return made
        end,
        tick = function(s) s.n = s.n + 1 end,
        failed = function() end,
      },
    }
  end

  it("a test that ends with it running names it and its line", function()
    local store = relua.TestStore(ticker({ name = "timer" }), { deps = { clock = "test" } })
    store:send("start")
    local ok, err = pcall(store.finish, store)
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain('An effect named "timer" (Scripts/Tests/real_apps_effects_test.lua:323) is still running. It was returned for this action and must complete before the end of the test. …')
    store:skipInFlightEffects()
  end)

  it("without a name, the message is TCA's", function()
    local store = relua.TestStore(ticker(nil), { deps = { clock = "test" } })
    store:send("start")
    local ok, err = pcall(store.finish, store)
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("An effect returned for this action is still running. It must complete before the end of the test. …")
    store:skipInFlightEffects()
  end)

  it("an unhandled error's warning names it", function()
    local store = relua.Store(ticker({ name = "timer" }), { deps = { clock = "immediate" } })
    store:send("start")
    store:wait()
    local warnings = store:warnings()
    expect(#warnings).to_be(1)
    expect(warnings[1]).to_contain('An "Effect.run" named "timer" returned from "Scripts/Tests/real_apps_effects_test.lua:323" threw an unhandled error: Scripts/Tests/real_apps_effects_test.lua:325: lost the clock')
  end)

  it("a raising catch's warning names it; :catch keeps the name", function()
    local F = feature "F" {
      state = {}, actions = { go = {} },
      reduce = on { go = function()
        local made = Effect.run(function() error("first", 0) end, { name = "saver" })
          :catch(function() error("second", 0) end)
        return made
      end },
    }
    local store = relua.Store(F)
    store:send("go")
    store:wait()
    expect(store:warnings()).to_equal({
      'The catch of an Effect.run named "saver" at Scripts/Tests/real_apps_effects_test.lua:366 raised: second',
    })
  end)

  it("a child feature's named effect keeps its name, scoped or presented", function()
    local Child = feature "Child" {
      state = {}, actions = { start = {} },
      reduce = on { start = function(_, _, deps)
        local made = Effect.run(function() deps.clock.sleep(1) end, { name = "child timer" })
        return made
      end },
    }
    local Parent = feature "Parent" {
      state = { child = {}, sheet = nil },
      actions = { open = {} },
      compose = { relua.scope("child", Child), relua.presents("sheet", Child) },
      reduce = on { open = function(s) s.sheet = {} end },
    }
    local store = relua.TestStore(Parent, { deps = { clock = "test" } })
    store:send("child.start")
    store:send("open", function(s) s.sheet = {} end)
    store:send("sheet.start")
    local ok, err = pcall(store.finish, store)
    expect(ok).to_be(false)
    local _, named = tostring(err):gsub('An effect named "child timer" %(Scripts/Tests/real_apps_effects_test%.lua:%d+%) is still running%.', "")
    expect(named).to_be(2)
    store:skipInFlightEffects()
  end)

  it("a name is a non-empty string", function()
    expect(function() Effect.run(function() end, { name = 3 }) end)
      .to_error("Effect.run: 'name' must be a non-empty string, got number")
    expect(function() Effect.run(function() end, { name = "" }) end)
      .to_error("Effect.run: 'name' must be a non-empty string, got string")
  end)
end)

describe("TCA 1.25's replacements for the deprecated operators, step for step", function()
  local Search = feature "Search" {
    state = { query = "", searched = {} },
    actions = { queryChanged = "string", search = "string", debouncedChanged = "string" },
    reduce = on {
      -- What e:debounce("search", 0.3) was: a sleep first, cancelling the one in flight.
      queryChanged = function(s, query, deps)
        s.query = query
        return Effect.run(function(send)
          deps.clock.sleep(0.3)
          send("search", query)
        end):cancellable("search", true)
      end,
      -- The deprecated form, kept working.
      debouncedChanged = function(s, query)
        s.query = query
        return Effect.send("search", query):debounce("search", 0.3)
      end,
      search = function(s, query) s.searched[#s.searched + 1] = query end,
    },
  }

  for _, action in ipairs({ "queryChanged", "debouncedChanged" }) do
    it(action .. ": only the last query of a burst is searched, 0.3 s after it", function()
      local store = relua.TestStore(Search, { deps = { clock = "test" } })
      store:send(action, "a", function(s) s.query = "a" end)
      store:advance(0.2)
      store:send(action, "ab", function(s) s.query = "ab" end)
      store:advance(0.2)
      local ok, err = pcall(store.receive, store, "search")
      expect(ok).to_be(false)
      expect(tostring(err)).to_contain("Expected to receive an action matching search, but received none")
      store:advance(0.1)
      store:receive("search", "ab", function(s) s.searched = { "ab" } end)
    end)
  end
end)

describe("case study: ConcurrentEffects (the recording screen)", function()
  local ConcurrentEffects = require "Features.CaseStudies.ConcurrentEffects"

  it("records the transcript beside the timer, and ends the meeting when the timer is done", function()
    local store = relua.TestStore(ConcurrentEffects, { deps = {
      clock = "test", speech = { requestAuthorization = function() return "authorized" end },
    } })
    store:send("onTask", function(s) s.isRecording = true end)
    store:post("speech", "Hello")
    store:receive("speechResult", "Hello", function(s) s.transcript = "Hello" end)
    store:advance(2)
    store:receive("timerTick", function(s) s.secondsElapsed = 1 end)
    store:receive("timerTick", function(s) s.secondsElapsed = 2 end)
    store:post("speech", ".")
    store:advance(3)
    store:receive("timerTick", function(s) s.secondsElapsed = 3 end)
    store:receive("timerTick", function(s) s.secondsElapsed = 4 end)
    store:receive("timerTick", function(s) s.secondsElapsed = 5 end)
    store:receive("meetingEnded", function(s) s.isRecording = false end)
  end)

  it("the meeting still waits for the transcript to end once the timer is done", function()
    local store = relua.TestStore(ConcurrentEffects, { state = { duration = 1, secondsElapsed = 0, transcript = "", isRecording = false }, deps = {
      clock = "test", speech = { requestAuthorization = function() return "authorized" end },
    } })
    store:send("onTask", function(s) s.isRecording = true end)
    store:advance(1)
    store:receive("timerTick", function(s) s.secondsElapsed = 1 end)
    store:post("speech", ".")
    store:receive("meetingEnded", function(s) s.isRecording = false end)
  end)

  it("ending the meeting early cancels the effect and both children", function()
    local store = relua.TestStore(ConcurrentEffects, { deps = { clock = "test" } })   -- speech: the test value, denied
    store:send("onTask", function(s) s.isRecording = true end)
    expect(store:post("speech", "Hello")).to_be(0)
    store:advance(1)
    store:receive("timerTick", function(s) s.secondsElapsed = 1 end)
    store:send("endMeetingTapped", function(s) s.isRecording = false end)
    store:advance(10)
  end)
end)
