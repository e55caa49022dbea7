-- TCA's ForEachReducerTests, ported step for step to the relua DSL.
--
-- Mapping: `.forEach(\.rows, action: \.rows)` is `relua.forEach("rows", Row)`, so
-- `.rows(.element(id: 1, action: …))` is "rows[id=1].…". TCA's `Elements` row takes a bare String
-- as its action; here the row's action is `set` with a string payload.
--
-- Each test is a local function named after TCA's test, declared with `port`: as `it` when relua
-- behaves as TCA does, as `pending("… — fails today: …")` when it does not yet.
local relua = require "relua"
local feature, on, Effect = relua.feature, relua.on, relua.Effect

local port = require "Tests.Support.TCAPort"("TCA ForEachReducerTests")

-- TCA's `Elements`: rows { id, value }; a row's action sets its value, and an empty value is
-- replaced by "Empty" from an effect.
local Row = feature "Row" {
  state = { value = "" },  -- and id
  actions = { set = "string" },
  reduce = on {
    set = function(s, value)
      s.value = value
      if value == "" then return Effect.run(function(send) send("set", "Empty") end) end
    end,
  },
}

local Elements = feature "Elements" {
  state = { rows = {} },
  actions = { buttonTapped = {} },
  compose = { relua.forEach("rows", Row) },
}

local function testElementAction()
  local store = relua.TestStore(Elements, {
    state = { rows = { { id = 1, value = "Blob" }, { id = 2, value = "Blob Jr." }, { id = 3, value = "Blob Sr." } } },
  })
  store:send("rows[id=1].set", "Blob Esq.", function(s) s.rows[1].value = "Blob Esq." end)
  store:send("rows[id=2].set", "", function(s) s.rows[2].value = "" end)
  store:receive("rows[id=2].set", "Empty", function(s) s.rows[2].value = "Empty" end)
end
port("testElementAction", testElementAction)

local function testNonElementAction()
  local store = relua.TestStore(Elements)
  store:send("buttonTapped")
end
port("testNonElementAction", testNonElementAction)

local function testMissingElement()
  local Empty = feature "Elements" { state = { rows = {} }, compose = { relua.forEach("rows", Row) } }
  local store = relua.TestStore(Empty)
  store:send("rows[id=1].set", "Blob Esq.")
  local warnings = store:warnings()
  expect(#warnings).to_be(1)
  expect(warnings[1]).to_contain("A \"forEach\" at \"Scripts/Tests/tca_foreach_test.lua:")
  expect(warnings[1]).to_contain("received an action for a missing element")
  expect(warnings[1]).to_contain("rows[id=1].set")
end
port("testMissingElement", testMissingElement)

-- Timers as rows; removing a row cancels its timer.
local Timer = feature "Timer" {
  state = { elapsed = 0 },  -- and id
  actions = { startButtonTapped = {}, tick = {} },
  reduce = on {
    startButtonTapped = function(_, _, deps)
      return Effect.run(function(send)
        while true do
          deps.clock.sleep(1)
          send("tick")
        end
      end)
    end,
    tick = function(s) s.elapsed = s.elapsed + 1 end,
  },
}

local function timers(action, id) return ("timers[id=%q].%s"):format(id, action) end

local function testAutomaticEffectCancellation()
  local Timers = feature "Timers" {
    state = { timers = {} },
    actions = { addTimerButtonTapped = {}, removeLastTimerButtonTapped = {} },
    compose = { relua.forEach("timers", Timer) },
    reduce = on {
      addTimerButtonTapped = function(s, _, deps) table.insert(s.timers, { id = deps.uuid(), elapsed = 0 }) end,
      removeLastTimerButtonTapped = function(s) table.remove(s.timers) end,
    },
  }
  local store = relua.TestStore(Timers, { deps = { uuid = "incrementing", clock = "test" } })
  local id0, id1 = relua.uuid(0), relua.uuid(1)
  store:send("addTimerButtonTapped", function(s) s.timers = { { id = id0, elapsed = 0 } } end)
  store:send(timers("startButtonTapped", id0))
  store:advance(2)
  store:receive(timers("tick", id0), function(s) s.timers[1].elapsed = 1 end)
  store:receive(timers("tick", id0), function(s) s.timers[1].elapsed = 2 end)
  store:send("addTimerButtonTapped", function(s)
    s.timers = { { id = id0, elapsed = 2 }, { id = id1, elapsed = 0 } }
  end)
  store:advance(1)
  store:receive(timers("tick", id0), function(s) s.timers[1].elapsed = 3 end)
  store:send(timers("startButtonTapped", id1))
  store:advance(1)
  store:receive(timers("tick", id0), function(s) s.timers[1].elapsed = 4 end)
  store:receive(timers("tick", id1), function(s) s.timers[2].elapsed = 1 end)
  store:send("removeLastTimerButtonTapped", function(s) s.timers = { { id = id0, elapsed = 4 } } end)
  store:advance(1)
  store:receive(timers("tick", id0), function(s) s.timers[1].elapsed = 5 end)
  store:send("removeLastTimerButtonTapped", function(s) s.timers = {} end)
end
port("testAutomaticEffectCancellation", testAutomaticEffectCancellation)

-- Not a test of TCA's own, but its forEach semantics (effects are cancelled for every id that
-- leaves the collection): a row replaced in place by one with another id takes its effects with
-- it; the new row starts clean.
local function testElementIdentityChange()
  local Timers = feature "Timers" {
    state = { timers = {} },
    actions = { renewFirst = {} },
    compose = { relua.forEach("timers", Timer) },
    reduce = on {
      renewFirst = function(s, _, deps) s.timers[1] = { id = deps.uuid(), elapsed = 0 } end,
    },
  }
  local store = relua.TestStore(Timers, {
    state = { timers = { { id = "a", elapsed = 0 } } },
    deps = { uuid = "incrementing", clock = "test" },
  })
  store:send(timers("startButtonTapped", "a"))
  store:advance(1)
  store:receive(timers("tick", "a"), function(s) s.timers[1].elapsed = 1 end)
  store:send("renewFirst", function(s) s.timers[1] = { id = relua.uuid(0), elapsed = 0 } end)
  store:advance(3)  -- the old row's timer is gone: nothing arrives, not even as a warning
  expect(store:warnings()).to_equal({})
end
port("identity: a row replaced in place by another id cancels the old row's effects", testElementIdentityChange)
