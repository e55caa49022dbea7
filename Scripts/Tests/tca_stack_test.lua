-- TCA's StackReducerTests, ported step for step to the relua DSL.
--
-- Mapping: `StackState<Child.State>` is `relua.stack("path", { child = Child })`, each element
-- `{ id = n, child = … }`; a `Path` enum is one `relua.stack` with a kind per case. TCA's
-- `.element(id: 0, action: .tap)` is "path[0].child.tap", `.popFrom(id: 0)` is "path.popFrom", 0;
-- `state.path.append(…)` is `relua.push(s.path, { child = … })`. `Task.never()` is a sleep on the
-- test clock that no test advances to (`never` below).
--
-- Each test is a local function named after TCA's test, declared with `port`: as `it` when relua
-- behaves as TCA does, as `pending("… — fails today: …")` when it does not yet.
local relua = require "relua"
local feature, on, Effect = relua.feature, relua.on, relua.Effect

local port = require "Tests.Support.TCAPort"("TCA StackReducerTests")

-- Task.never(): suspends until cancelled (nothing advances the test clock 285 years).
local function never(deps) deps.clock.sleep(9e9) end

local function dismissSelf(_, _, deps) return Effect.run(function() deps.dismiss() end) end
local function runForever(_, _, deps) return Effect.run(function() never(deps) end) end

-- A parent with a stack of `Child` at "path" and the given own handlers (own actions without
-- payload are declared from the handler names).
local function stackParent(kinds, handlers, actions)
  actions = actions or {}
  for name in pairs(handlers or {}) do
    if not name:find("%.") and actions[name] == nil then actions[name] = {} end
  end
  return feature "Parent" {
    state = { path = {} },
    actions = actions,
    compose = { relua.stack("path", kinds) },
    reduce = on(handlers or {}),
  }
end

local function testPresent()
  local Child = feature "Child" {
    state = { count = 0 },
    actions = { decrementButtonTapped = {}, incrementButtonTapped = {} },
    reduce = on {
      decrementButtonTapped = function(s) s.count = s.count - 1 end,
      incrementButtonTapped = function(s) s.count = s.count + 1 end,
    },
  }
  local Parent = stackParent({ child = Child }, {
    pushChild = function(s) relua.push(s.path, { child = Child:initial() }) end,
  })
  local store = relua.TestStore(Parent)
  store:send("pushChild", function(s) s.path = { { id = 0, child = { count = 0 } } } end)
end
port("testPresent", testPresent)

local function testDismissFromParent()
  local Child = feature "Child" { state = {}, actions = { onAppear = {} }, reduce = on { onAppear = runForever } }
  local Parent = stackParent({ child = Child }, {
    popChild = function(s) table.remove(s.path) end,
    pushChild = function(s) relua.push(s.path, { child = {} }) end,
  })
  local store = relua.TestStore(Parent, { deps = { clock = "test" } })
  store:send("pushChild", function(s) s.path = { { id = 0, child = {} } } end)
  store:send("path[0].child.onAppear")
  store:send("popChild", function(s) s.path = {} end)
end
port("testDismissFromParent", testDismissFromParent)

local function testDismissFromChild()
  local Child = feature "Child" {
    state = {},
    actions = { closeButtonTapped = {}, onAppear = {} },
    reduce = on { closeButtonTapped = dismissSelf, onAppear = runForever },
  }
  local Parent = stackParent({ child = Child }, {
    pushChild = function(s) relua.push(s.path, { child = {} }) end,
  })
  local store = relua.TestStore(Parent, { deps = { clock = "test" } })
  store:send("pushChild", function(s) s.path = { { id = 0, child = {} } } end)
  store:send("path[0].child.onAppear")
  store:send("path[0].child.closeButtonTapped")
  store:receive("path.popFrom", 0, function(s) s.path = {} end)
end
port("testDismissFromChild", testDismissFromChild)

-- TCA expects the receive to fail, showing popFrom(id: #1) expected and #0 received.
local function testDismissReceiveWrongAction()
  local Child = feature "Child" { state = {}, actions = { tap = {} }, reduce = dismissSelf }
  local Parent = stackParent({ child = Child })
  local store = relua.TestStore(Parent, { state = { path = { { id = 0, child = {} } } } })
  store:send("path[0].child.tap")
  expect(function() store:receive("path.popFrom", 1, function(s) s.path = {} end) end)
    .to_error("Received unexpected action: …\n\n  − path.popFrom(1)\n  + path.popFrom(0)\n\n(Expected: −, Received: +)")
  store:skipReceivedActions()
end
port("testDismissReceiveWrongAction", testDismissReceiveWrongAction)

-- TCA pushes with `.push(id:state:)` (not in the DSL); here the parent's `push(count)` does it,
-- giving the same ids 0, 1, 2. Element 1 dismisses itself after 1 s, taking element 2 with it.
local function testDismissFromIntermediateChild()
  local Child = feature "Child" {
    state = { count = 0 },
    actions = { onAppear = {} },
    reduce = on {
      onAppear = function(s, _, deps)
        local count = s.count
        return Effect.run(function()
          deps.clock.sleep(count)
          deps.dismiss()
        end)
      end,
    },
  }
  local Parent = stackParent({ child = Child }, {
    push = function(s, count) relua.push(s.path, { child = { count = count } }) end,
  }, { push = "integer" })
  local store = relua.TestStore(Parent, { deps = { clock = "test" } })

  store:send("push", 2, function(s) s.path = { { id = 0, child = { count = 2 } } } end)
  store:send("path[0].child.onAppear")

  store:send("push", 1, function(s) s.path[2] = { id = 1, child = { count = 1 } } end)
  store:send("path[1].child.onAppear")

  store:send("push", 2, function(s) s.path[3] = { id = 2, child = { count = 2 } } end)
  store:send("path[2].child.onAppear")

  store:advance(1)
  store:receive("path.popFrom", 1, function(s)
    s.path[3] = nil
    s.path[2] = nil
  end)
  store:send("path.popFrom", 0, function(s) s.path = {} end)
end
port("testDismissFromIntermediateChild", testDismissFromIntermediateChild)

local function testDismissFromDeepLinkedChild()
  local Child = feature "Child" {
    state = {},
    actions = { closeButtonTapped = {} },
    reduce = on { closeButtonTapped = dismissSelf },
  }
  local Parent = stackParent({ child = Child }, {
    pushChild = function(s) relua.push(s.path, { child = {} }) end,
  })
  local store = relua.TestStore(Parent, { state = { path = { { id = 0, child = {} } } } })
  store:send("path[0].child.closeButtonTapped")
  store:receive("path.popFrom", 0, function(s) s.path = {} end)
end
port("testDismissFromDeepLinkedChild", testDismissFromDeepLinkedChild)

local function testEnumChild()
  local Child = feature "Child" {
    state = { count = 0 },
    actions = { closeButtonTapped = {}, incrementButtonTapped = {}, onAppear = {} },
    reduce = on {
      closeButtonTapped = dismissSelf,
      incrementButtonTapped = function(s) s.count = s.count + 1 end,
      onAppear = runForever,
    },
  }
  local Parent = stackParent({ child1 = Child, child2 = Child }, {
    pushChild1 = function(s) relua.push(s.path, { child1 = { count = 0 } }) end,
    pushChild2 = function(s) relua.push(s.path, { child2 = { count = 0 } }) end,
  })
  local store = relua.TestStore(Parent, { deps = { clock = "test" } })
  store:send("pushChild1", function(s) s.path = { { id = 0, child1 = { count = 0 } } } end)
  store:send("path[0].child1.onAppear")
  store:send("pushChild2", function(s) s.path[2] = { id = 1, child2 = { count = 0 } } end)
  store:send("path[1].child2.onAppear")
  store:send("path.popFrom", 0, function(s) s.path = {} end)
end
port("testEnumChild", testEnumChild)

local function testParentDismiss()
  local Child = feature "Child" { state = {}, actions = { tap = {} }, reduce = runForever }
  local Parent = stackParent({ child = Child }, {
    popToRoot = function(s) s.path = {} end,
    pushChild = function(s) relua.push(s.path, { child = {} }) end,
  })
  local store = relua.TestStore(Parent, { deps = { clock = "test" } })
  store:send("pushChild", function(s) s.path = { { id = 0, child = {} } } end)
  store:send("path[0].child.tap")
  store:send("pushChild", function(s) s.path[2] = { id = 1, child = {} } end)
  store:send("path[1].child.tap")
  store:send("popToRoot", function(s) s.path = {} end)
end
port("testParentDismiss", testParentDismiss)

-- Two elements with the same cancel id: each element's cancel stops only its own effect.
local function testSiblingCannotCancel()
  local Child = feature "Child" {
    state = { count = 0 },
    actions = { cancel = {}, response = "integer", tap = {} },
    reduce = on {
      cancel = function() return Effect.cancel("cancel") end,
      response = function(s, value) s.count = value end,
      tap = function(_, _, deps)
        return Effect.run(function(send)
          deps.clock.sleep(1)
          send("response", 42)
        end):cancellable("cancel")
      end,
    },
  }
  local Parent = stackParent({ child1 = Child, child2 = Child }, {
    pushChild1 = function(s) relua.push(s.path, { child1 = { count = 0 } }) end,
    pushChild2 = function(s) relua.push(s.path, { child2 = { count = 0 } }) end,
  })
  local store = relua.TestStore(Parent, {
    state = { path = { { id = 0, child1 = { count = 0 } }, { id = 1, child2 = { count = 0 } } } },
    deps = { clock = "test" },
  })
  store:send("path[0].child1.tap")
  store:send("path[1].child2.tap")
  store:send("path[0].child1.cancel")
  store:advance(1)
  store:receive("path[1].child2.response", 42, function(s) s.path[2].child2.count = 42 end)

  store:send("path[0].child1.tap")
  store:send("path[1].child2.tap")
  store:send("path[1].child2.cancel")
  store:advance(1)
  store:receive("path[0].child1.response", 42, function(s) s.path[1].child1.count = 42 end)
end
port("testSiblingCannotCancel", testSiblingCannotCancel)

-- TCA's `Child(id:)` is a reducer with a parameter: here one feature per value.
local function testFirstChildWhileEffectInFlight_DeliversToCorrectID()
  local function makeChild(n)
    return feature("Child" .. n) {
      state = { count = 0 },
      actions = { response = "integer", tap = {} },
      reduce = on {
        response = function(s, value) s.count = s.count + value end,
        tap = function(_, _, deps)
          return Effect.run(function(send)
            deps.clock.sleep(n)
            send("response", n)
          end)
        end,
      },
    }
  end
  local Parent = stackParent({ child1 = makeChild(1), child2 = makeChild(2) }, {
    popAll = function(s) s.path = {} end,
    popFirst = function(s) table.remove(s.path, 1) end,
  })
  local store = relua.TestStore(Parent, {
    state = { path = { { id = 0, child1 = { count = 0 } }, { id = 1, child2 = { count = 0 } } } },
    deps = { clock = "test" },
  })
  store:send("path[0].child1.tap")
  store:send("path[1].child2.tap")
  store:advance(1)
  store:receive("path[0].child1.response", 1, function(s) s.path[1].child1.count = 1 end)
  store:advance(1)
  store:receive("path[1].child2.response", 2, function(s) s.path[2].child2.count = 2 end)

  store:send("path[0].child1.tap")
  store:send("path[1].child2.tap")
  store:send("popFirst", function(s) table.remove(s.path, 1) end)
  store:advance(2)
  store:receive("path[1].child2.response", 2, function(s) s.path[1].child2.count = 4 end)
  store:send("popFirst", function(s) s.path = {} end)
end
port("testFirstChildWhileEffectInFlight_DeliversToCorrectID", testFirstChildWhileEffectInFlight_DeliversToCorrectID)

-- TCA's stack of Int with a Void action: here an element feature with one action.
local Element = feature "Element" { state = {}, actions = { tap = {} } }

local function testSendActionWithIDThatDoesNotExist()
  local Parent = stackParent({ element = Element })
  local store = relua.TestStore(Parent, { state = { path = { { id = 0, element = {} } } } })
  store:send("path[999].element.tap")
  local warnings = store:warnings()
  expect(#warnings).to_be(1)
  expect(warnings[1]).to_contain("received an action for a missing element")
  expect(warnings[1]).to_contain("tca_stack_test.lua:")
  expect(warnings[1]).to_contain("path[999].element.tap")
end
port("testSendActionWithIDThatDoesNotExist", testSendActionWithIDThatDoesNotExist)

local function testPopIDThatDoesNotExist()
  local Parent = stackParent({ element = Element })
  local store = relua.TestStore(Parent, { state = { path = { { id = 0, element = {} } } } })
  store:send("path.popFrom", 999)
  local warnings = store:warnings()
  expect(#warnings).to_be(1)
  expect(warnings[1]).to_contain("received \"popFrom\" for a missing element")
  expect(warnings[1]).to_contain("999")
end
port("testPopIDThatDoesNotExist", testPopIDThatDoesNotExist)

-- TCA expects the test to fail at its end ("An effect returned for this action is still
-- running"); relua's runner would fail the test at its end, so the check is made with finish.
local function testChildWithInFlightEffect()
  local Child = feature "Child" { state = {}, actions = { tap = {} }, reduce = runForever }
  local Parent = stackParent({ child = Child })
  local store = relua.TestStore(Parent, {
    state = { path = { { id = 0, child = {} } } },
    deps = { clock = "test" },
  })
  store:send("path[0].child.tap")
  expect(function() store:finish(0.1) end)
    .to_error("An effect returned for this action is still running. It must complete before the end of the test.")
  store:skipInFlightEffects()
end
port("testChildWithInFlightEffect", testChildWithInFlightEffect)

local function testMultipleChildEffects()
  local Child = feature "Child" {
    state = { count = 0 },
    actions = { tap = {}, response = "integer" },
    reduce = on {
      tap = function(s, _, deps)
        local count = s.count
        return Effect.run(function(send)
          deps.clock.sleep(count)
          send("response", 42)
        end)
      end,
      response = function(s, value) s.count = value end,
    },
  }
  local Parent = stackParent({ child = Child })
  local store = relua.TestStore(Parent, {
    state = { path = { { id = 0, child = { count = 1 } }, { id = 1, child = { count = 2 } } } },
    deps = { clock = "test" },
  })
  store:send("path[0].child.tap")
  store:send("path[1].child.tap")
  store:advance(1)
  store:receive("path[0].child.response", 42, function(s) s.path[1].child.count = 42 end)
  store:advance(1)
  store:receive("path[1].child.response", 42, function(s) s.path[2].child.count = 42 end)
end
port("testMultipleChildEffects", testMultipleChildEffects)

local function testChildEffectCancellation()
  local Child = feature "Child" { state = {}, actions = { tap = {} }, reduce = runForever }
  local Parent = stackParent({ child = Child })
  local store = relua.TestStore(Parent, {
    state = { path = { { id = 0, child = {} } } },
    deps = { clock = "test" },
  })
  store:send("path[0].child.tap")
  store:send("path.popFrom", 0, function(s) s.path = {} end)
end
port("testChildEffectCancellation", testChildEffectCancellation)

-- TCA mixes `.push(id:state:)` actions (not in the DSL) with appends; the appends take ids from
-- the store's generator, which never goes back. Kept here: the appends. After popping all four
-- elements, the next append gets id 4, not 0.
local function testPush()
  local Parent = stackParent({ child = Element }, {
    push = function(s) relua.push(s.path, { child = {} }) end,
  })
  local store = relua.TestStore(Parent)
  store:send("push", function(s) s.path = { { id = 0, child = {} } } end)
  store:send("push", function(s) s.path[2] = { id = 1, child = {} } end)
  store:send("push", function(s) s.path[3] = { id = 2, child = {} } end)
  store:send("push", function(s) s.path[4] = { id = 3, child = {} } end)
  store:send("path.popFrom", 0, function(s) s.path = {} end)
  store:send("push", function(s) s.path = { { id = 4, child = {} } } end)
end
port("testPush", testPush)

-- The parent appends, then appends again from an Effect.send: the ids go on 0, 1, 2, 3.
-- (TCA also draws ids inside the expectation closures to show the test's generator is a copy;
-- relua has no generator to draw from.)
local function testSendCopiesStackElementIDGenerator()
  local Parent = feature "Feature" {
    state = { path = {} },
    actions = { buttonTapped = {}, response = {} },
    compose = { relua.stack("path", { value = Element }) },
    reduce = on {
      buttonTapped = function(s)
        relua.push(s.path, { value = {} })
        return Effect.send("response")
      end,
      response = function(s) relua.push(s.path, { value = {} }) end,
    },
  }
  local store = relua.TestStore(Parent)
  store:send("buttonTapped", function(s) s.path = { { id = 0, value = {} } } end)
  store:receive("response", function(s) s.path[2] = { id = 1, value = {} } end)
  store:send("buttonTapped", function(s) s.path[3] = { id = 2, value = {} } end)
  store:receive("response", function(s) s.path[4] = { id = 3, value = {} } end)
end
port("testSendCopiesStackElementIDGenerator", testSendCopiesStackElementIDGenerator)

-- TCA's parent has a reducer before the stack's forEach (tapBefore empties the stack) and one
-- after (tapAfter empties it); a relua feature has one own reducer, placed with relua.own: so
-- two parents. TCA pushes with `.push(id:state:)`; here with the parent's `push`. TCA's second
-- push gets id 1 (ids never repeat in a store); in the second store here it is that store's first.
local function testOuterCancellation()
  local Child = feature "Child" { state = {}, actions = { onAppear = {} }, reduce = runForever }
  local function push(s) relua.push(s.path, { child = {} }) end
  local OwnFirst = feature "OwnFirst" {
    state = { path = {} },
    actions = { push = {}, tapBefore = {} },
    compose = { relua.own, relua.stack("path", { child = Child }) },
    reduce = on { push = push, tapBefore = function(s) s.path = {} end },
  }
  local OwnLast = feature "OwnLast" {
    state = { path = {} },
    actions = { push = {}, tapAfter = {} },
    compose = { relua.stack("path", { child = Child }), relua.own },
    reduce = on { push = push, tapAfter = function(s) s.path = {} end },
  }
  local before = relua.TestStore(OwnFirst, { deps = { clock = "test" } })
  before:send("push", function(s) s.path = { { id = 0, child = {} } } end)
  before:send("path[0].child.onAppear")
  before:send("tapBefore", function(s) s.path = {} end)

  local after = relua.TestStore(OwnLast, { deps = { clock = "test" } })
  after:send("push", function(s) s.path = { { id = 0, child = {} } } end)
  after:send("path[0].child.onAppear")
  after:send("tapAfter", function(s) s.path = {} end)
  after:send("tapAfter")
end
port("testOuterCancellation", testOuterCancellation)

-- The issue's case of StackElementID generation: ids never repeat within a store.
local function testStackElementIDsNeverRepeat()
  local Parent = stackParent({ child = Element }, {
    push = function(s) relua.push(s.path, { child = {} }) end,
  })
  local store = relua.TestStore(Parent)
  store:send("push", function(s) s.path = { { id = 0, child = {} } } end)
  store:send("push", function(s) s.path[2] = { id = 1, child = {} } end)
  store:send("path.popFrom", 1, function(s) s.path[2] = nil end)
  store:send("push", function(s) s.path[2] = { id = 2, child = {} } end)
  expect(store:screens()).to_equal({ "", "path[0].child", "path[2].child" })
end
port("StackElementID: push, push, popFrom the second, push gives id 2", testStackElementIDsNeverRepeat)
