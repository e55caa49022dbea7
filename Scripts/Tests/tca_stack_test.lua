-- TCA's StackReducerTests, ported step for step to the relua DSL.
--
-- Mapping: `StackState<Child.State>` is `relua.stack("path", { child = Child })`, each element
-- `{ id = n, child = … }`; a `Path` enum is one `relua.stack` with a kind per case. TCA's
-- `.element(id: 0, action: .tap)` is "path[id=0].child.tap", `.popFrom(id: 0)` is "path.popFrom", 0,
-- `.push(id: 0, state: …)` is "path.push", { id = 0, child = … };
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
  store:send("path[id=0].child.onAppear")
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
  store:send("path[id=0].child.onAppear")
  store:send("path[id=0].child.closeButtonTapped")
  store:receive("path.popFrom", 0, function(s) s.path = {} end)
end
port("testDismissFromChild", testDismissFromChild)

-- TCA expects the receive to fail, showing popFrom(id: #1) expected and #0 received.
local function testDismissReceiveWrongAction()
  local Child = feature "Child" { state = {}, actions = { tap = {} }, reduce = dismissSelf }
  local Parent = stackParent({ child = Child })
  local store = relua.TestStore(Parent, { state = { path = { { id = 0, child = {} } } } })
  store:send("path[id=0].child.tap")
  expect(function() store:receive("path.popFrom", 1, function(s) s.path = {} end) end)
    .to_error("Received unexpected action: …\n\n  − path.popFrom(1)\n  + path.popFrom(0)\n\n(Expected: −, Received: +)")
  store:skipReceivedActions()
end
port("testDismissReceiveWrongAction", testDismissReceiveWrongAction)

-- Element 1 dismisses itself after 1 s, taking element 2 with it.
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
  local Parent = stackParent({ child = Child })
  local store = relua.TestStore(Parent, { deps = { clock = "test" } })

  store:send("path.push", { id = 0, child = { count = 2 } }, function(s) s.path = { { id = 0, child = { count = 2 } } } end)
  store:send("path[id=0].child.onAppear")

  store:send("path.push", { id = 1, child = { count = 1 } }, function(s) s.path[2] = { id = 1, child = { count = 1 } } end)
  store:send("path[id=1].child.onAppear")

  store:send("path.push", { id = 2, child = { count = 2 } }, function(s) s.path[3] = { id = 2, child = { count = 2 } } end)
  store:send("path[id=2].child.onAppear")

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
  store:send("path[id=0].child.closeButtonTapped")
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
  store:send("path[id=0].child1.onAppear")
  store:send("pushChild2", function(s) s.path[2] = { id = 1, child2 = { count = 0 } } end)
  store:send("path[id=1].child2.onAppear")
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
  store:send("path[id=0].child.tap")
  store:send("pushChild", function(s) s.path[2] = { id = 1, child = {} } end)
  store:send("path[id=1].child.tap")
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
  store:send("path[id=0].child1.tap")
  store:send("path[id=1].child2.tap")
  store:send("path[id=0].child1.cancel")
  store:advance(1)
  store:receive("path[id=1].child2.response", 42, function(s) s.path[2].child2.count = 42 end)

  store:send("path[id=0].child1.tap")
  store:send("path[id=1].child2.tap")
  store:send("path[id=1].child2.cancel")
  store:advance(1)
  store:receive("path[id=0].child1.response", 42, function(s) s.path[1].child1.count = 42 end)
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
  store:send("path[id=0].child1.tap")
  store:send("path[id=1].child2.tap")
  store:advance(1)
  store:receive("path[id=0].child1.response", 1, function(s) s.path[1].child1.count = 1 end)
  store:advance(1)
  store:receive("path[id=1].child2.response", 2, function(s) s.path[2].child2.count = 2 end)

  store:send("path[id=0].child1.tap")
  store:send("path[id=1].child2.tap")
  store:send("popFirst", function(s) table.remove(s.path, 1) end)
  store:advance(2)
  store:receive("path[id=1].child2.response", 2, function(s) s.path[1].child2.count = 4 end)
  store:send("popFirst", function(s) s.path = {} end)
end
port("testFirstChildWhileEffectInFlight_DeliversToCorrectID", testFirstChildWhileEffectInFlight_DeliversToCorrectID)

-- TCA's stack of Int with a Void action: here an element feature with one action.
local Element = feature "Element" { state = {}, actions = { tap = {} } }

local function testSendActionWithIDThatDoesNotExist()
  local Parent = stackParent({ element = Element })
  local store = relua.TestStore(Parent, { state = { path = { { id = 0, element = {} } } } })
  store:send("path[id=999].element.tap")
  local warnings = store:warnings()
  expect(#warnings).to_be(1)
  expect(warnings[1]).to_contain("received an action for a missing element")
  expect(warnings[1]).to_contain("tca_stack_test.lua:")
  expect(warnings[1]).to_contain("path[id=999].element.tap")
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
  store:send("path[id=0].child.tap")
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
  store:send("path[id=0].child.tap")
  store:send("path[id=1].child.tap")
  store:advance(1)
  store:receive("path[id=0].child.response", 42, function(s) s.path[1].child.count = 42 end)
  store:advance(1)
  store:receive("path[id=1].child.response", 42, function(s) s.path[2].child.count = 42 end)
end
port("testMultipleChildEffects", testMultipleChildEffects)

local function testChildEffectCancellation()
  local Child = feature "Child" { state = {}, actions = { tap = {} }, reduce = runForever }
  local Parent = stackParent({ child = Child })
  local store = relua.TestStore(Parent, {
    state = { path = { { id = 0, child = {} } } },
    deps = { clock = "test" },
  })
  store:send("path[id=0].child.tap")
  store:send("path.popFrom", 0, function(s) s.path = {} end)
end
port("testChildEffectCancellation", testChildEffectCancellation)

-- `path.push` with an id moves the store's counter past it: the parent's append after a push of
-- id 0 gets 1, after a push of id 2 gets 3. An id that left the stack can be pushed again, as TCA.
local function testPush()
  local Parent = stackParent({ child = Element }, {
    push = function(s) relua.push(s.path, { child = {} }) end,
  })
  local store = relua.TestStore(Parent)
  store:send("path.push", { id = 0, child = {} }, function(s) s.path = { { id = 0, child = {} } } end)
  store:send("push", function(s) s.path[2] = { id = 1, child = {} } end)
  store:send("path.push", { id = 2, child = {} }, function(s) s.path[3] = { id = 2, child = {} } end)
  store:send("push", function(s) s.path[4] = { id = 3, child = {} } end)
  store:send("path.popFrom", 0, function(s) s.path = {} end)
  store:send("path.push", { id = 0, child = {} }, function(s) s.path = { { id = 0, child = {} } } end)
end
port("testPush", testPush)

-- TCA reports an issue and pushes nothing; relua refuses the send with an error naming the
-- stack and its feature (bad input is an error at the sender's line), and nothing changes.
local function testPushReusedID()
  local store = relua.TestStore(stackParent({ child = Element }))
  store:send("path.push", { id = 0, child = {} }, function(s) s.path = { { id = 0, child = {} } } end)
  local ok, err = pcall(store.send, store, "path.push", { id = 0, child = {} })
  expect(ok).to_be(false)
  expect(tostring(err)).to_match("The reducer failed for this action: path%.push of Parent %(the stack at Scripts/Tests/tca_stack_test%.lua:%d+%): the stack already holds an element with id 0; nothing was pushed")
  expect(#store:state().path).to_be(1)
end
port("testPushReusedID", testPushReusedID)

-- TCA reports an issue in tests (the id is not the one its generator expects) but pushes it;
-- relua pushes it without a warning and moves the store's counter past it, so ids still never
-- repeat: the next element pushed without an id gets 2.
local function testPushIDGreaterThanNextGeneration()
  local Parent = stackParent({ child = Element }, { push = function(s) relua.push(s.path, { child = {} }) end })
  local store = relua.TestStore(Parent)
  store:send("path.push", { id = 1, child = {} }, function(s) s.path = { { id = 1, child = {} } } end)
  store:send("path.push", { child = {} }, function(s) s.path[2] = { id = 2, child = {} } end)
  store:send("push", function(s) s.path[3] = { id = 3, child = {} } end)
  expect(#store:warnings()).to_be(0)
end
port("testPushIDGreaterThanNextGeneration", testPushIDGreaterThanNextGeneration)

local function testMismatchedIDFailure()
  local store = relua.TestStore(stackParent({ child = Element }))
  local ok, err = pcall(store.send, store, "path.push", { id = 0, child = {} }, function(s) s.path = { { id = 1, child = {} } } end)
  expect(ok).to_be(false)
  expect(tostring(err)).to_contain("A state change does not match expectation: …")
  -- Two ids are two elements (the diff of an identified collection goes by id).
  expect(tostring(err)).to_contain("−     { child = {}, id = 1 },")
  expect(tostring(err)).to_contain("+     { child = {}, id = 0 },")
end
port("testMismatchedIDFailure", testMismatchedIDFailure)

describe("path.push", function()
  local Detail = feature "Detail" { state = { count = 0, rows = {} }, actions = { increment = {} }, compose = {} }

  it("is refused, naming the stack, its feature and what it holds, when the element is not one declared kind", function()
    local store = relua.Store(stackParent({ detail = Detail, child = Element }))
    for _, case in ipairs {
      { { nope = {} }, "'nope' is not a kind of this stack; it holds child, detail" },
      { { id = 3 }, "the element names no kind (the stack holds child, detail)" },
      { { child = {}, detail = {} }, "the element names 2 kinds (child, detail); give one of child, detail" },
      { { id = "x", child = {} }, "the id must be an integer from 0, got string \"x\"" },
      { { detail = 5 }, "the detail state does not fit Detail: state: Detail's state must be a table with named fields, got a number" },
    } do
      local ok, err = pcall(store.send, store, "path.push", case[1])
      expect(ok).to_be(false)
      expect(tostring(err)).to_contain(case[2])
      expect(tostring(err)).to_contain("nothing was pushed")
    end
    expect(#store:state().path).to_be(0)
  end)

  it("from a parent's effect: the parent sees the pushed element while handling the push (TCA at HEAD)", function()
    local seen
    local Parent = stackParent({ detail = Detail }, {
      open = function() return Effect.send("path.push", { detail = { count = 7, rows = {} } }) end,
      ["path.push"] = function(s, element) seen = { #s.path, element.id, s.path[1].detail.count } end,
    })
    local store = relua.TestStore(Parent)
    store:send("open")
    store:receive("path.push", function(s) s.path = { { id = 0, detail = { count = 7, rows = {} } } } end)
    expect(seen).to_equal({ 1, 0, 7 })
  end)

  it("a bad push from an effect fails the send that led to it and undoes it", function()
    local Parent = feature "Parent" {
      state = { path = {}, opened = false },
      actions = { open = {} },
      compose = { relua.stack("path", { detail = Detail }) },
      reduce = on { open = function(s) s.opened = true; return Effect.send("path.push", { detial = {} }) end },
    }
    local store = relua.Store(Parent)
    local ok, err = pcall(store.send, store, "open")
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("'detial' is not a kind of this stack; it holds detail")
    expect(store:state().opened).to_be(false)
  end)
end)

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
  before:send("path[id=0].child.onAppear")
  before:send("tapBefore", function(s) s.path = {} end)

  local after = relua.TestStore(OwnLast, { deps = { clock = "test" } })
  after:send("push", function(s) s.path = { { id = 0, child = {} } } end)
  after:send("path[id=0].child.onAppear")
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
  expect(store:screens()).to_equal({ "", "path[id=0].child", "path[id=2].child" })
end
port("StackElementID: push, push, popFrom the second, push gives id 2", testStackElementIDsNeverRepeat)
