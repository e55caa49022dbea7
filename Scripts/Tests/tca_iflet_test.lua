-- TCA's IfLetReducerTests, ported step for step to the relua DSL.
--
-- Mapping: `.ifLet(\.child, action: /Action.child)` on plain optional state is
-- `relua.optional("child", Child)`, so `.child(.tap)` is "child.tap". An optional `AlertState`
-- (`@Presents var alert: AlertState?`) is `relua.presents("alert", relua.alert { … })`, so
-- `.alert(.presented(.ok))` is "alert.ok".
--
-- Each test is a local function named after TCA's test, declared with `port`: as `it` when relua
-- behaves as TCA does, as `pending("… — fails today: …")` when it does not yet.
local relua = require "relua"
local feature, on, Effect = relua.feature, relua.on, relua.Effect

local port = require "Tests.Support.TCAPort"("TCA IfLetReducerTests")

local function timer(_, _, deps)
  return Effect.run(function(send)
    while true do
      deps.clock.sleep(1)
      send("timerTick")
    end
  end)
end

local function testNilChild()
  local Child = feature "Child" { state = {}, actions = { tap = {} } }
  local Parent = feature "Parent" { state = {}, compose = { relua.optional("child", Child) } }
  local store = relua.TestStore(Parent)
  store:send("child.tap")
  local warnings = store:warnings()
  expect(#warnings).to_be(1)
  expect(warnings[1]).to_contain("An \"ifLet\" at \"Scripts/Tests/tca_iflet_test.lua:")
  expect(warnings[1]).to_contain("received a child action when child state was nil")
  expect(warnings[1]).to_contain("Action: child.tap")
end
port("testNilChild", testNilChild)

local function testEffectCancellation()
  local Child = feature "Child" {
    state = { count = 0 },
    actions = { timerButtonTapped = {}, timerTick = {} },
    reduce = on {
      timerButtonTapped = timer,
      timerTick = function(s) s.count = s.count + 1 end,
    },
  }
  local Parent = feature "Parent" {
    state = {},
    actions = { childButtonTapped = {} },
    compose = { relua.optional("child", Child) },
    reduce = on {
      childButtonTapped = function(s)
        if s.child == nil then s.child = Child:initial() else s.child = nil end
      end,
    },
  }
  local store = relua.TestStore(Parent, { deps = { clock = "test" } })
  store:send("childButtonTapped", function(s) s.child = { count = 0 } end)
  store:send("child.timerButtonTapped")
  store:advance(2)
  store:receive("child.timerTick", function(s) s.child.count = 1 end)
  store:receive("child.timerTick", function(s) s.child.count = 2 end)
  store:send("childButtonTapped", function(s) s.child = nil end)
end
port("testEffectCancellation", testEffectCancellation)

local function testGrandchildEffectCancellation()
  local GrandChild = feature "GrandChild" {
    state = { count = 0 },
    actions = { timerButtonTapped = {}, timerTick = {} },
    reduce = on {
      timerButtonTapped = timer,
      timerTick = function(s) s.count = s.count + 1 end,
    },
  }
  local Child = feature "Child" { state = {}, compose = { relua.optional("grandChild", GrandChild) } }
  local Parent = feature "Parent" {
    state = {},
    actions = { exitButtonTapped = {}, startButtonTapped = {} },
    compose = { relua.optional("child", Child) },
    reduce = on {
      exitButtonTapped = function(s) s.child = nil end,
      startButtonTapped = function(s) s.child = { grandChild = { count = 0 } } end,
    },
  }
  local store = relua.TestStore(Parent, { deps = { clock = "test" } })
  store:send("startButtonTapped", function(s) s.child = { grandChild = { count = 0 } } end)
  store:send("child.grandChild.timerButtonTapped")
  store:advance(1)
  store:receive("child.grandChild.timerTick", function(s) s.child.grandChild.count = 1 end)
  store:send("exitButtonTapped", function(s) s.child = nil end)
end
port("testGrandchildEffectCancellation", testGrandchildEffectCancellation)

local hi = { title = "Hi!" }

local function testEphemeralState()
  local Parent = feature "Parent" {
    state = {},
    actions = { tap = {} },
    compose = { relua.presents("alert", relua.alert { ok = {} }) },
    reduce = on { tap = function(s) s.alert = hi end },
  }
  local store = relua.TestStore(Parent)
  store:send("tap", function(s) s.alert = hi end)
  store:send("alert.ok", function(s) s.alert = nil end)
end
port("testEphemeralState", testEphemeralState)

-- The child is replaced by one with another id in the same place: the old child's effect is
-- cancelled, only the new child's response arrives.
local function testIdentifiableChild()
  local Child = feature "Child" {
    state = { value = 0 },  -- and id
    actions = { tap = {}, response = "integer" },
    reduce = on {
      tap = function(s, _, deps)
        local id = s.id
        return Effect.run(function(send)
          deps.clock.sleep(0)
          send("response", id)
        end)
      end,
      response = function(s, value) s.value = value end,
    },
  }
  local Feature = feature "Feature" {
    state = {},
    actions = { newChild = {} },
    compose = { relua.optional("child", Child) },
    reduce = on {
      newChild = function(s)
        if s.child == nil then return end
        s.child = { id = s.child.id + 1, value = 0 }
      end,
    },
  }
  local store = relua.TestStore(Feature, { state = { child = { id = 1, value = 0 } }, deps = { clock = "test" } })
  store:send("child.tap")
  store:send("newChild", function(s) s.child = { id = 2, value = 0 } end)
  store:send("child.tap")
  store:advance(0)
  store:receive("child.response", 2, function(s) s.child = { id = 2, value = 2 } end)
end
port("testIdentifiableChild", testIdentifiableChild)

-- A button that presents the same alert again: the new alert stays (state unchanged); the
-- alert's next button dismisses it.
local function testEphemeralDismissal()
  local hello = { title = "Hello" }
  local Feature = feature "Feature" {
    state = {},
    actions = { tap = {} },
    compose = { relua.presents("alert", relua.alert { again = {}, ok = {} }) },
    reduce = on {
      ["alert.again"] = function(s) s.alert = hello end,
      tap = function(s) s.alert = hello end,
    },
  }
  local store = relua.TestStore(Feature)
  store:send("tap", function(s) s.alert = hello end)
  store:send("alert.again")
  store:send("alert.ok", function(s) s.alert = nil end)
end
port("testEphemeralDismissal", testEphemeralDismissal)
