-- Effect cancellation, as TCA pins it: EffectCancellationTests and EffectCancellationIsolationTests
-- ported to the relua DSL, and the issue's rule for cancel ids in a tree of features.
--
-- TCA's EffectCancellationTests drive effects directly (a Combine subject, a Task reading
-- `effect.actions`); relua runs effects only in a store, so each test here is a small feature
-- whose effect stands in for the subject, and the values TCA collects are the actions the test
-- store receives. Left out: testImmediateCancellation (it cancels the Task that consumes the
-- effect, which a script has no hold on), testCancellationAfterDelay (the same as its
-- _WithTestScheduler twin, on the real main queue), and the internals (testCancellablesCleanUp_*,
-- testConcurrentCancels, testAsyncConcurrentCancels, testCancelIDHash, testCancellablePath,
-- testCancellationWithoutThrowingCancellationError).
--
-- Each test is a local function, declared with `port`: as `it` when relua behaves as TCA does, as
-- `pending("… — fails today: …")` when it does not yet.
local relua = require "relua"
local feature, on, Effect = relua.feature, relua.on, relua.Effect

local port = require "Tests.Support.TCAPort"(nil)

-- Task.never(): suspends until cancelled (nothing advances the test clock 285 years).
local function never(deps) deps.clock.sleep(9e9) end

local function ticker(period)
  return function(_, _, deps)
    return Effect.run(function(send)
      while true do
        deps.clock.sleep(period)
        send("tick")
      end
    end)
  end
end

-- EffectCancellationTests -------------------------------------------------------------------

local ECT = "TCA EffectCancellationTests"

-- The subject sends 1, 2, 3 a second apart; after the cancel, 3 never arrives.
local function testCancellation()
  local Feature = feature "Feature" {
    state = {},
    actions = { start = {}, cancel = {}, value = "integer" },
    reduce = on {
      start = function(_, _, deps)
        return Effect.run(function(send)
          for n = 1, 3 do
            deps.clock.sleep(1)
            send("value", n)
          end
        end):cancellable("CancelID")
      end,
      cancel = function() return Effect.cancel("CancelID") end,
      value = function(s, n) s.last = n end,
    },
  }
  local store = relua.TestStore(Feature, { deps = { clock = "test" } })
  store:send("start")
  store:advance(1)
  store:receive("value", 1, function(s) s.last = 1 end)
  store:advance(1)
  store:receive("value", 2, function(s) s.last = 2 end)
  store:send("cancel")
  store:advance(1)
  store:finish()
end
port(ECT, "testCancellation", testCancellation)

-- A second effect with the same id and cancelInFlight replaces the first: each second brings
-- one tick, not two.
local function testCancelInFlight()
  local Feature = feature "Feature" {
    state = { ticks = 0 },
    actions = { start = {}, cancel = {}, tick = {} },
    reduce = on {
      start = function(s, p, deps) return ticker(1)(s, p, deps):cancellable("CancelID", true) end,
      cancel = function() return Effect.cancel("CancelID") end,
      tick = function(s) s.ticks = s.ticks + 1 end,
    },
  }
  local store = relua.TestStore(Feature, { deps = { clock = "test" } })
  store:send("start")
  store:advance(1)
  store:receive("tick", function(s) s.ticks = 1 end)
  store:advance(1)
  store:receive("tick", function(s) s.ticks = 2 end)
  store:send("start")
  store:advance(1)
  store:receive("tick", function(s) s.ticks = 3 end)
  store:advance(1)
  store:receive("tick", function(s) s.ticks = 4 end)
  store:send("cancel")
  store:finish()
end
port(ECT, "testCancelInFlight", testCancelInFlight)

local function delayedOne(delay)
  return function(_, _, deps)
    return Effect.run(function(send)
      deps.clock.sleep(delay)
      send("value", 1)
    end)
  end
end

local function testCancellationAfterDelay_WithTestScheduler()
  local Feature = feature "Feature" {
    state = {},
    actions = { start = {}, cancel = {}, value = "integer" },
    reduce = on {
      start = function(s, p, deps) return delayedOne(2)(s, p, deps):cancellable("CancelID") end,
      cancel = function() return Effect.cancel("CancelID") end,
      value = function(s, n) s.result = n end,
    },
  }
  local store = relua.TestStore(Feature, { deps = { clock = "test" } })
  store:send("start")
  store:advance(1)
  store:send("cancel")
  store:advance(10)  -- mainQueue.run()
  expect(store:state().result).to_be_nil()
end
port(ECT, "testCancellationAfterDelay_WithTestScheduler", testCancellationAfterDelay_WithTestScheduler)

local function testDoubleCancellation()
  local Feature = feature "Feature" {
    state = { ticks = 0 },
    actions = { start = {}, cancel = {}, tick = {} },
    reduce = on {
      start = function(s, p, deps) return ticker(1)(s, p, deps):cancellable("CancelID"):cancellable("CancelID") end,
      cancel = function() return Effect.cancel("CancelID") end,
      tick = function(s) s.ticks = s.ticks + 1 end,
    },
  }
  local store = relua.TestStore(Feature, { deps = { clock = "test" } })
  store:send("start")
  store:advance(1)
  store:receive("tick", function(s) s.ticks = 1 end)
  store:send("cancel")
  store:advance(1)
  store:finish()
end
port(ECT, "testDoubleCancellation", testDoubleCancellation)

local function testCompleteBeforeCancellation()
  local Feature = feature "Feature" {
    state = {},
    actions = { start = {}, cancel = {}, value = "integer" },
    reduce = on {
      start = function(_, _, deps)
        return Effect.run(function(send)
          deps.clock.sleep(1)
          send("value", 1)
        end):cancellable("CancelID")
      end,
      cancel = function() return Effect.cancel("CancelID") end,
      value = function(s, n) s.last = n end,
    },
  }
  local store = relua.TestStore(Feature, { deps = { clock = "test" } })
  store:send("start")
  store:advance(1)
  store:receive("value", 1, function(s) s.last = 1 end)
  store:finish()  -- the subject completed
  store:send("cancel")
  store:finish()
end
port(ECT, "testCompleteBeforeCancellation", testCompleteBeforeCancellation)

-- Two effects sharing an id both run to the end.
local function testSharedId()
  local Feature = feature "Feature" {
    state = {},
    actions = { start = {}, value = "integer" },
    reduce = on {
      start = function(_, _, deps)
        return Effect.merge(
          Effect.run(function(send) deps.clock.sleep(1); send("value", 1) end):cancellable("id"),
          Effect.run(function(send) deps.clock.sleep(2); send("value", 2) end):cancellable("id")
        )
      end,
      value = function(s, n) s.last = n end,
    },
  }
  local store = relua.TestStore(Feature, { deps = { clock = "test" } })
  store:send("start")
  store:advance(1)
  store:receive("value", 1, function(s) s.last = 1 end)
  store:advance(1)
  store:receive("value", 2, function(s) s.last = 2 end)
  store:finish()
end
port(ECT, "testSharedId", testSharedId)

local function testNestedMergeCancellation()
  local Feature = feature "Feature" {
    state = {},
    actions = { start = {}, value = "integer" },
    reduce = on {
      start = function()
        return Effect.merge(
          Effect.run(function(send) send("value", 1); send("value", 2) end):cancellable(1)
        ):cancellable(2)
      end,
      value = function(s, n) s.last = n end,
    },
  }
  local store = relua.TestStore(Feature)
  store:send("start")
  store:receive("value", 1, function(s) s.last = 1 end)
  store:receive("value", 2, function(s) s.last = 2 end)
  store:finish()
end
port(ECT, "testNestedMergeCancellation", testNestedMergeCancellation)

-- EffectCancellationIsolationTests: two tests, each with its own store, use the same id for a
-- long-living effect; neither sees the other's.
local ECIT = "TCA EffectCancellationIsolationTests"

local Isolated = feature "Feature" {
  state = { value = 0 },
  actions = { response = "integer", start = {}, stop = {} },
  reduce = on {
    response = function(s, value) s.value = value end,
    start = function(_, _, deps)
      return Effect.run(function(send)
        send("response", 42)
        never(deps)
      end):cancellable("longLiving", true)
    end,
    stop = function() return Effect.cancel("longLiving") end,
  },
}

local function testIsolation()
  local store = relua.TestStore(Isolated, { deps = { clock = "test" } })
  store:send("start")
  store:receive("response", function(s) s.value = 42 end)
  store:send("stop")
end
port(ECIT, "testIsolation1", testIsolation)
port(ECIT, "testIsolation2", testIsolation)

-- Two stores of the same feature in one test: stopping one leaves the other's effect running.
local function testIsolationBetweenStores()
  local one = relua.TestStore(Isolated, { deps = { clock = "test" } })
  local two = relua.TestStore(Isolated, { deps = { clock = "test" } })
  one:send("start")
  one:receive("response", function(s) s.value = 42 end)
  two:send("start")
  two:receive("response", function(s) s.value = 42 end)
  one:send("stop")
  expect(function() two:finish(0.1) end).to_error("still running")
  two:send("stop")
end
port(ECIT, "testIsolation1 and 2 in one test, two stores", testIsolationBetweenStores)

-- The issue's rule: a parent's Effect.cancel reaches its descendants -------------------------
--
-- `Effect.cancel(id)` in a parent cancels the effects with that id in every descendant (through
-- scope, optional, forEach, stack, presents), as TCA's navigation id paths do for presented and
-- pushed features; a child still cannot cancel its parent's or a sibling's effects.

local ISSUE = "issue: cancellation reaches descendants"

-- A child whose timer ticks every `period` seconds, cancellable as "timer".
local function timerChild(name)
  return feature(name or "Child") {
    state = { ticks = 0 },
    actions = { start = {}, stop = {}, tick = {} },
    reduce = on {
      start = function(s, p, deps) return ticker(1)(s, p, deps):cancellable("timer") end,
      stop = function() return Effect.cancel("timer") end,
      tick = function(s) s.ticks = s.ticks + 1 end,
    },
  }
end

local Child = timerChild()

-- A parent with a child at every kind of place, and a timer of its own with the same id.
local Middle = feature "Middle" {
  state = { rows = {} },
  compose = { relua.forEach("rows", feature "Leaf" {
    state = { ticks = 0 },
    actions = { start = {}, stop = {}, tick = {} },
    compose = { relua.presents("dest", { child = Child }) },
    reduce = on {
      start = function(s, p, deps) return ticker(1)(s, p, deps):cancellable("timer") end,
      stop = function() return Effect.cancel("timer") end,
      tick = function(s) s.ticks = s.ticks + 1 end,
    },
  }) },
}

local Parent = feature "Parent" {
  state = function()
    return {
      ticks = 0,
      a = { ticks = 0 }, b = { ticks = 0 },
      opt = { ticks = 0 },
      rows = { { id = 1, ticks = 0 }, { id = 2, ticks = 0 } },
      path = { { id = 0, child = { ticks = 0 } } },
      dest = { child = { ticks = 0 } },
      middle = { rows = { { id = "x", ticks = 0, dest = { child = { ticks = 0 } } } } },
    }
  end,
  actions = { start = {}, stop = {}, tick = {} },
  compose = {
    relua.scope("a", Child), relua.scope("b", Child),
    relua.optional("opt", Child),
    relua.forEach("rows", Child),
    relua.stack("path", { child = Child }),
    relua.presents("dest", { child = Child }),
    relua.scope("middle", Middle),
  },
  reduce = on {
    start = function(s, p, deps) return ticker(1)(s, p, deps):cancellable("timer") end,
    stop = function() return Effect.cancel("timer") end,
    tick = function(s) s.ticks = s.ticks + 1 end,
  },
}

-- Starts the child at `place`, sees one tick, has the parent cancel "timer", then nothing arrives.
local function parentCancelsAt(place, ticksAt)
  return function()
    local store = relua.TestStore(Parent, { deps = { clock = "test" } })
    store:send(place .. ".start")
    store:advance(1)
    store:receive(place .. ".tick", function(s) ticksAt(s).ticks = 1 end)
    store:send("stop")
    store:advance(3)
  end
end


port(ISSUE, "a parent's cancel reaches a scoped child",
  parentCancelsAt("a", function(s) return s.a end))
port(ISSUE, "a parent's cancel reaches an optional child",
  parentCancelsAt("opt", function(s) return s.opt end))
port(ISSUE, "a parent's cancel reaches a forEach element",
  parentCancelsAt("rows[id=2]", function(s) return s.rows[2] end))
port(ISSUE, "a parent's cancel reaches a stack element",
  parentCancelsAt("path[id=0].child", function(s) return s.path[1].child end))
port(ISSUE, "a parent's cancel reaches a presented child",
  parentCancelsAt("dest.child", function(s) return s.dest.child end))
port(ISSUE, "a parent's cancel reaches a descendant through scope, forEach and presents",
  parentCancelsAt('middle.rows[id="x"].dest.child', function(s) return s.middle.rows[1].dest.child end))

-- The parent's cancel reaches every descendant at once, and its own effect too.
local function testParentCancelsAll()
  local store = relua.TestStore(Parent, { deps = { clock = "test" } })
  local places = { "a", "b", "opt", "rows[id=1]", "rows[id=2]", "path[id=0].child", "dest.child", 'middle.rows[id="x"]',
    'middle.rows[id="x"].dest.child' }
  store:send("start")
  for _, place in ipairs(places) do store:send(place .. ".start") end
  store:send("stop")
  store:advance(3)
end
port(ISSUE, "a parent's cancel reaches all its descendants and itself", testParentCancelsAll)

-- A scope is not a navigation boundary (in TCA only ifLet, forEach, presentation and stack extend
-- a feature's place): a scoped child's cancel ids are its parent's, so `a.stop` stops the parent's
-- timer too. (A navigation child cannot: see the presentation and stack ports.)
local function testScopedChildSharesItsParentsIDs()
  local store = relua.TestStore(Parent, { deps = { clock = "test" } })
  store:send("start")
  store:send("a.stop")
  store:advance(3)
end
port(ISSUE, "a scoped child shares its parent's cancel ids, as in TCA", testScopedChildSharesItsParentsIDs)

-- Siblings: scope a cannot cancel scope b; row 1 cannot cancel row 2. The second timer starts
-- half a second later, so no two ticks are due at the same instant.
local function siblingCannotCancel(first, second, firstAt, secondAt)
  return function()
    local store = relua.TestStore(Parent, { deps = { clock = "test" } })
    store:send(first .. ".start")
    store:advance(0.5)
    store:send(second .. ".start")
    store:advance(0.5)
    store:receive(first .. ".tick", function(s) firstAt(s).ticks = 1 end)
    store:send(first .. ".stop")
    store:advance(0.5)
    store:receive(second .. ".tick", function(s) secondAt(s).ticks = 1 end)
    store:advance(1)
    store:receive(second .. ".tick", function(s) secondAt(s).ticks = 2 end)
    store:send(second .. ".stop")
    store:advance(3)
  end
end

-- Scoped siblings share their parent's ids too: a.stop stops b's timer, as in TCA.
port(ISSUE, "scoped siblings share their cancel ids, as in TCA", function()
  local store = relua.TestStore(Parent, { deps = { clock = "test" } })
  store:send("b.start")
  store:send("a.stop")
  store:advance(3)
end)
port(ISSUE, "a forEach element cannot cancel its sibling's effect",
  siblingCannotCancel("rows[id=1]", "rows[id=2]", function(s) return s.rows[1] end, function(s) return s.rows[2] end))
port(ISSUE, "a presented grandchild cannot cancel its parent's (the row's) effect", function()
  local store = relua.TestStore(Parent, { deps = { clock = "test" } })
  store:send('middle.rows[id="x"].start')
  store:send('middle.rows[id="x"].dest.child.stop')
  store:advance(1)
  store:receive('middle.rows[id="x"].tick', function(s) s.middle.rows[1].ticks = 1 end)
  store:send('middle.rows[id="x"].stop')
  store:advance(3)
end)
