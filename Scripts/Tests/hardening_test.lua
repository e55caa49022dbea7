-- The host never dies: every bad value a script hands relua is a Lua error at the script's line,
-- the state stays as it was, and the store goes on working. Each case here once crashed, hung or
-- exhausted the host. Each check writes the bad call and a call of Lua's `error` on one line, so
-- both must name the same place.
local relua = require "relua"
local Effect, on = relua.Effect, relua.on

local places = require "Tests.Support.ErrorPlaces"
local raised = places.raised

-- `bad` raises a message containing `expected` from the line where `marker` raises.
local function raisesHere(bad, marker, expected) places.raisesHere(bad, marker, expected, true) end

local Timer = relua.feature "Timer" {
  state = { n = 0 },
  actions = { debounced = "any", throttled = "any", sleep = "any", tick = {}, ok = {} },
  reduce = on {
    debounced = function(s, seconds) s.n = s.n + 1; return Effect.send("tick"):debounce("d", seconds) end,
    throttled = function(s, seconds) s.n = s.n + 1; return Effect.send("tick"):throttle("t", seconds) end,
    sleep = function(_, seconds, deps)
      return Effect.run(function() deps.clock.sleep(seconds) end):catch(function(_, send) send("tick") end)
    end,
    tick = function(s) s.n = s.n + 100 end,
    ok = function(s) s.n = s.n + 1 end,
  },
}

describe("durations from a script", function()
  for _, seconds in ipairs { math.huge, -math.huge, 1e300, 0 / 0, -1 } do
    local shown = tostring(seconds)

    it("debounce and throttle refuse " .. shown .. " at the line, state unchanged", function()
      local store = relua.Store(Timer, { deps = { clock = "test" } })
      raisesHere(function() store:send("debounced", seconds) end, function() error("") end,
        "Effect:debounce: expected seconds: a finite number from 0 to 9e9")
      raisesHere(function() store:send("throttled", seconds) end, function() error("") end,
        "Effect:throttle: expected seconds: a finite number from 0 to 9e9")
      expect(store:state().n).to_be(0)
      store:send("ok")
      expect(store:state().n).to_be(1)
    end)

    it("store:advance and store:finish refuse " .. shown, function()
      local store = relua.TestStore(Timer, { deps = { clock = "test" } })
      raisesHere(function() store:advance(seconds) end, function() error("") end,
        "bad argument #1 to 'store:advance' (expected seconds: a finite number from 0 to 9e9)")
      raisesHere(function() store:finish(seconds) end, function() error("") end,
        "bad argument #1 to 'store:finish' (expected seconds: a finite number from 0 to 9e9)")
      store:send("ok", function(s) s.n = 1 end)
    end)

    it("deps.clock.sleep(" .. shown .. ") fails the effect, not the host", function()
      local store = relua.TestStore(Timer, { deps = { clock = "test" } })
      store:send("sleep", seconds)
      store:receive("tick", function(s) s.n = 100 end)
    end)
  end

  it("a sleep's error names the bad argument", function()
    local store = relua.Store(Timer, { deps = { clock = "immediate" } })
    local Probe = relua.feature "Probe" {
      state = { message = "" },
      actions = { go = {}, failed = "string" },
      reduce = on {
        go = function(_, _, deps)
          return Effect.run(function() deps.clock.sleep(0 / 0) end):catch(function(m, send) send("failed", m) end)
        end,
        failed = function(s, message) s.message = message end,
      },
    }
    local probe = relua.Store(Probe, { deps = { clock = "immediate" } })
    probe:send("go")
    probe:wait()
    expect(probe:state().message).to_contain("deps.clock.sleep(seconds): expected seconds: a finite number from 0 to 9e9")
    expect(store:state().n).to_be(0)
  end)
end)

describe("numbers relua turns into ids", function()
  it("relua.uuid refuses negatives and takes any non-negative integer", function()
    raisesHere(function() relua.uuid(-1) end, function() error("") end,
      "(expected a non-negative integer, got -1)")
    raisesHere(function() relua.uuid(1.5) end, function() error("") end,
      "(number has no integer representation)")
    expect(relua.uuid(1)).to_be("00000000-0000-0000-0000-000000000001")
    expect(relua.uuid(2 ^ 62)).to_be("00000000-0000-0000-4000-000000000000")
    expect(relua.uuid(math.maxinteger)).to_be("00000000-0000-0000-7FFF-FFFFFFFFFFFF")
  end)

  it("a state path with the smallest integer is nil, not a trap", function()
    local store = relua.Store(Timer)
    local Rows = relua.feature "Rows" { state = { list = { 1, 2 } }, actions = {} }
    local rows = relua.Store(Rows)
    expect(rows:state("list[" .. math.mininteger .. "]")).to_be_nil()
    expect(rows:state("list[1]")).to_be(1)
    expect(store:state().n).to_be(0)
  end)
end)

describe("deep nesting", function()
  local function nested(depth)
    local root = {}
    local current = root
    for _ = 2, depth do
      current[1] = {}
      current = current[1]
    end
    return root
  end

  it("relua.fromJSON of 20,000 nested arrays is an error", function()
    local text = string.rep("[", 20000) .. string.rep("]", 20000)
    raisesHere(function() relua.fromJSON(text) end, function() error("") end,
      "JSON: nested more than 200 objects and arrays deep at byte 200")
    expect(#relua.fromJSON(string.rep("[", 200) .. string.rep("]", 200))).to_be(1)
  end)

  it("relua.toJSON of a 10,000-deep table is an error", function()
    raisesHere(function() relua.toJSON(nested(10000)) end, function() error("") end,
      "state nests more than 200 tables deep")
    expect(relua.toJSON(nested(200))).to_be(string.rep("[", 199) .. "{}" .. string.rep("]", 199))
  end)

  it("a store's state of a 10,000-deep table is an error", function()
    local Deep = relua.feature "Deep" { state = { n = 0 }, actions = { put = "any", ok = {} }, reduce = on {
      put = function(s, value) s.value = value end,
      ok = function(s) s.n = s.n + 1 end,
    } }
    raisesHere(function() relua.Store(Deep, { state = { n = 0, value = nested(10000) } }) end, function() error("") end,
      "state nests more than 200 tables deep")
    local store = relua.Store(Deep)
    raisesHere(function() store:send("put", nested(10000)) end, function() error("") end,
      "state nests more than 200 tables deep")
    expect(store:state().value).to_be_nil()
    store:send("ok")
    expect(store:state().n).to_be(1)
  end)

  it("a reducer cannot nest the state deeper one view at a time", function()
    local Grow = relua.feature "Grow" { state = { n = 0 }, actions = { chain = {}, wrap = {}, ok = {} }, reduce = on {
      chain = function(s)
        local view = s
        for _ = 1, 10000 do
          view.next = {}
          view = view.next
        end
      end,
      wrap = function(s) for _ = 1, 10000 do s.inner = s end end,
      ok = function(s) s.n = s.n + 1 end,
    } }
    local store = relua.Store(Grow)
    local _, message = raised(function() store:send("chain") end)
    expect(message).to_contain("state nests more than 200 tables deep")
    expect(message).to_contain("the state is unchanged")
    _, message = raised(function() store:send("wrap") end)
    expect(message).to_contain("state nests more than 200 tables deep")
    expect(store:state()).to_equal { n = 0 }
    store:send("ok")
    expect(store:state().n).to_be(1)
  end)
end)

describe("state of the wrong shape", function()
  local Row = relua.feature "Row" { state = { id = 0, count = 0 }, actions = { inc = {} },
    reduce = on { inc = function(s) s.count = s.count + 1 end } }
  local Leaf = relua.feature "Leaf" { state = { n = 0 }, actions = { go = {} }, reduce = on { go = function(s) s.n = 1 end } }
  local Parent = relua.feature "Parent" {
    state = { child = { n = 0 } },
    actions = {},
    compose = {
      relua.scope("child", Leaf), relua.optional("maybe", Leaf), relua.forEach("rows", Row),
      relua.presents("destination", { leaf = Leaf }), relua.stack("path", { leaf = Leaf }),
    },
  }

  it("a root state that is a list is refused where the store is made", function()
    raisesHere(function() relua.Store(Leaf, { json = "[1,2,3]" }) end, function() error("") end,
      "state: Leaf's state must be a table with named fields, got a list")
    raisesHere(function() relua.TestStore(Leaf, { json = "5" }) end, function() error("") end,
      "state: Leaf's state must be a table with named fields, got a number")
  end)

  it("composed children are checked: scope, optional, forEach, presents, stack", function()
    local cases = {
      { '{"child":5}', "state.child: Leaf's state must be a table with named fields, got a number" },
      { '{"child":{"n":0},"maybe":[1]}', "state.maybe: Leaf's state must be a table with named fields, got a list" },
      { '{"child":{"n":0},"rows":[{"count":1}]}', "state.rows[1]: each element needs an id (an integer or a string), got nil" },
      { '{"child":{"n":0},"rows":[{"id":1},{"id":1}]}', "state.rows[2]: the id 1 is used twice" },
      { '{"child":{"n":0},"destination":{"nope":{}}}', "state.destination: a destination names exactly one of its kinds (leaf), got nope" },
      { '{"child":{"n":0},"path":[{"id":"a","leaf":{"n":0}}]}', "state.path[1]: a stack element's id must be an integer" },
    }
    for _, case in ipairs(cases) do
      raisesHere(function() relua.Store(Parent, { json = case[1] }) end, function() error("") end, case[2])
    end
    local store = relua.Store(Parent, { json = '{"child":{"n":0},"rows":[{"id":1,"count":0}],"path":[{"id":0,"leaf":{"n":0}}]}' })
    store:send("rows[id=1].inc")
    expect(store:state("rows[1].count")).to_be(1)
  end)
end)

describe("a failed send undoes the engine's own navigation writes", function()
  local Leaf = relua.feature "Leaf" { state = { n = 0 }, actions = { go = {} }, reduce = on { go = function(s) s.n = 1 end } }
  local Nav = relua.feature "Nav" {
    state = {},
    actions = { show = {}, push = {} },
    compose = {
      relua.presents("destination", { alert = relua.alert { ok = {} }, leaf = Leaf }),
      relua.stack("path", { leaf = Leaf }),
    },
    reduce = on {
      show = function(s) s.destination = { alert = { title = "t", message = "m", buttons = { { label = "OK", action = "ok" } } } } end,
      push = function(s) relua.push(s.path, { leaf = { n = 0 } }) end,
      ["destination.alert.ok"] = function() error("refused") end,
      ["destination.dismiss"] = function() error("refused") end,
      ["path.popFrom"] = function() error("refused") end,
    },
  }

  it("an alert's button, a dismiss and a pop that raise leave the screens as they were", function()
    local store = relua.Store(Nav)
    store:send("show")
    store:send("push")
    local before = store:json()
    expect(select(2, raised(function() store:send("destination.alert.ok") end))).to_contain("refused (in Nav's reducer")
    expect(store:json()).to_be(before)
    expect(select(2, raised(function() store:send("destination.dismiss") end))).to_contain("refused (in Nav's reducer")
    expect(store:json()).to_be(before)
    expect(select(2, raised(function() store:send("path.popFrom", 0) end))).to_contain("refused (in Nav's reducer")
    expect(store:json()).to_be(before)
    store:send("path[id=0].leaf.go")
    expect(store:state("path[1].leaf.n")).to_be(1)
  end)
end)

describe("effects changed after they were made", function()
  local Edit = relua.feature "Edit" {
    state = { n = 0 },
    actions = { noFunction = {}, ownChild = {}, badKind = {}, bomb = {}, ok = {} },
    reduce = on {
      noFunction = function(s) s.n = 1; local e = Effect.run(function() end); e.fn = nil; return e end,
      ownChild = function(s) s.n = 1; local e = Effect.run(function() end):cancellable("x"); e.effect = e; return e end,
      badKind = function(s) s.n = 1; local e = Effect.send("ok"); e.kind = "explode"; return e end,
      bomb = function(s)
        s.n = 1
        local e = Effect.send("ok")
        for _ = 1, 50 do e = Effect.merge(e, e) end  -- shared children: 2^50 effects
        return e
      end,
      ok = function(s) s.n = s.n + 1 end,
    },
  }

  it("are errors at the send, and the state is unchanged", function()
    local store = relua.Store(Edit)
    raisesHere(function() store:send("noFunction") end, function() error("") end,
      "Edit's reducer returned an Effect.run whose function is missing (an Effect was changed after it was made)")
    raisesHere(function() store:send("ownChild") end, function() error("") end,
      "Edit's reducer returned effects nested more than 100 deep (was an Effect made its own child?)")
    raisesHere(function() store:send("badKind") end, function() error("") end,
      "Edit's reducer returned an unknown effect 'explode' (an Effect was changed after it was made)")
    raisesHere(function() store:send("bomb") end, function() error("") end,
      "Edit's reducer returned more than 100000 effects")
    expect(store:state().n).to_be(0)
    store:send("ok")
    expect(store:state().n).to_be(1)
  end)
end)

describe("runaway work", function()
  local Loop = relua.feature "Loop" {
    state = { n = 0 },
    actions = { again = {}, twice = {}, fan = {}, ok = {} },
    reduce = on {
      again = function(s) s.n = s.n + 1; return Effect.send("again") end,
      twice = function(s) s.n = s.n + 1; return Effect.merge(Effect.send("twice"), Effect.send("twice")) end,
      fan = function(s)
        s.n = s.n + 1
        return Effect.merge(Effect.run(function(send) send("fan") end), Effect.run(function(send) send("fan") end))
      end,
      ok = function(s) s.n = s.n + 1 end,
    },
  }

  it("an action that sends itself is stopped, naming the chain, and undone", function()
    local store = relua.Store(Loop)
    raisesHere(function() store:send("again") end, function() error("") end,
      "a send led to more than 10000 follow-up actions and was stopped (does an action send itself?): again → again → again → … → again → again")
    raisesHere(function() store:send("twice") end, function() error("") end,
      "a send led to more than 10000 follow-up actions")
    expect(store:state().n).to_be(0)
    store:send("ok")
    expect(store:state().n).to_be(1)
  end)

  it("the cap on actions per send is a store option", function()
    local store = relua.Store(Loop, { limits = { actionsPerSend = 5 } })
    raisesHere(function() store:send("again") end, function() error("") end,
      "a send led to more than 5 follow-up actions and was stopped (does an action send itself?): again → again → again → again → again")
    raisesHere(function() relua.Store(Loop, { limits = { actionsPerSend = 0 } }) end, function() error("") end,
      "limits.actionsPerSend: expected a positive integer")
    raisesHere(function() relua.Store(Loop, { limits = { actions = 5 } }) end, function() error("") end,
      "limits: unknown limit actions (known: actionsPerSend, effectsInFlight)")
  end)

  it("effects that start effects without end stop at the cap on effects in flight", function()
    local store = relua.Store(Loop, { limits = { effectsInFlight = 20 } })
    store:send("fan")
    -- Effects keep re-sending, but never more than 20 run at once: sends past it fail, undone.
    local Wait = relua.feature "Wait" { state = {}, actions = { go = {} }, reduce = on {
      go = function(_, _, deps) return Effect.run(function() deps.clock.sleep(0.05) end) end } }
    local waiter = relua.Store(Wait, { deps = { clock = "live" } })
    waiter:send("go")
    waiter:wait()
    local warnings = store:warnings()
    expect(#warnings > 0).to_be(true)
    expect(#warnings <= 1000).to_be(true)
    expect(warnings[#warnings]).to_contain("20 effects are running, the most a store runs at once")
  end)
end)

describe("text given to load is not a file (#31)", function()
  it("keeps a file-like name for messages, shown as Lua shows a file's", function()
    local ok, message = pcall(load("\n\nerror('x')", "@some/where.lua"))
    expect(ok).to_be(false)
    expect(message).to_be("some/where.lua:3: x")
    -- A long name: "..." and its tail, as Lua cuts a file name.
    local long = "@" .. ("abcdefghij/"):rep(8) .. "tail.lua"
    ok, message = pcall(load("error('y')", long))
    expect(ok).to_be(false)
    expect(message).to_be("..." .. long:sub(-56) .. ":1: y")
  end)
end)
