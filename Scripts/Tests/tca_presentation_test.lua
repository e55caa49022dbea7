-- TCA's PresentationReducerTests, ported step for step to the relua DSL.
--
-- Mapping: `@Presents var child: Child.State?` is `relua.presents("child", Child)`, so TCA's
-- `.child(.presented(.tap))` is "child.tap" and `.child(.dismiss)` is "child.dismiss"; a
-- `Destination` enum is one `relua.presents` with a kind per case (`.destination(.presented(
-- .child(.tap)))` is "destination.child.tap"). A child with an action named `dismiss` of its own
-- cannot be presented without a kind ("child.dismiss" would name both): the one test that has
-- one presents it as the kind `child` of `relua.presents("child", { child = Child })`. `Task.never()` is a sleep on
-- the test clock that no test advances to (`never` below). TCA's `TestClock`/`DispatchQueue.test`
-- are `deps = { clock = "test" }` and `store:advance`.
--
-- Each test is a local function named after TCA's test. It is declared with `it` when relua
-- behaves as TCA does, and with `pending("… — fails today: …")` when it does not yet: the body is
-- kept as TCA's semantics demand, ready to be switched back to `it`.
local relua = require "relua"
local feature, on, Effect = relua.feature, relua.on, relua.Effect

local port = require "Tests.Support.TCAPort"("TCA PresentationReducerTests")

-- Task.never(): suspends until cancelled (nothing advances the test clock 285 years).
local function never(deps) deps.clock.sleep(9e9) end

-- A child with a count, used by most tests.
local function counterChild(extra)
  local actions = { decrementButtonTapped = {}, incrementButtonTapped = {} }
  local handlers = {
    decrementButtonTapped = function(s) s.count = s.count - 1 end,
    incrementButtonTapped = function(s) s.count = s.count + 1 end,
  }
  for name, handler in pairs(extra or {}) do
    actions[name] = {}
    handlers[name] = handler
  end
  return feature "Child" { state = { count = 0 }, actions = actions, reduce = on(handlers) }
end

-- A parent presenting `Child` at "child", with `presentChild`.
local function presenter(Child, extra)
  local actions = { presentChild = {} }
  local handlers = { presentChild = function(s) s.child = Child:initial() end }
  for name, handler in pairs(extra or {}) do
    if not name:find("%.") then actions[name] = {} end
    handlers[name] = handler
  end
  return feature "Parent" {
    state = {},
    actions = actions,
    compose = { relua.presents("child", Child) },
    reduce = on(handlers),
  }
end

local function closeButtonTapped(_, _, deps)
  return Effect.run(function() deps.dismiss() end)
end

local function startTimer(_, _, deps)
  return Effect.run(function(send)
    while true do
      deps.clock.sleep(1)
      send("tick")
    end
  end)
end

local function tick(s) s.count = s.count + 1 end

-- Presenting and dismissing -----------------------------------------------------------------

local function testPresentation_parentDismissal()
  local Parent = presenter(counterChild())
  local store = relua.TestStore(Parent)
  store:send("presentChild", function(s) s.child = { count = 0 } end)
  store:send("child.incrementButtonTapped", function(s) s.child.count = 1 end)
  store:send("child.dismiss", function(s) s.child = nil end)
end
port("testPresentation_parentDismissal", testPresentation_parentDismissal)

local function testPresentation_parentDismissal_NilOut()
  local Parent = presenter(counterChild(), { dismissChild = function(s) s.child = nil end })
  local store = relua.TestStore(Parent)
  store:send("presentChild", function(s) s.child = { count = 0 } end)
  store:send("child.incrementButtonTapped", function(s) s.child.count = 1 end)
  store:send("dismissChild", function(s) s.child = nil end)
end
port("testPresentation_parentDismissal_NilOut", testPresentation_parentDismissal_NilOut)

local function testPresentation_childDismissal()
  local Child = counterChild({ closeButtonTapped = closeButtonTapped })
  local Parent = feature "Parent" {
    state = {},  -- lastCount: the child's count when it was dismissed
    actions = { presentChild = {} },
    compose = { relua.presents("child", Child) },
    reduce = on {
      presentChild = function(s) s.child = Child:initial() end,
      ["child.dismiss"] = function(s) s.lastCount = s.child and s.child.count end,
    },
  }
  local store = relua.TestStore(Parent)
  store:send("presentChild", function(s) s.child = { count = 0 } end)
  store:send("child.decrementButtonTapped", function(s) s.child.count = -1 end)
  store:send("child.closeButtonTapped")
  store:receive("child.dismiss", function(s)
    s.child = nil
    s.lastCount = -1
  end)
end
port("testPresentation_childDismissal", testPresentation_childDismissal)

local function testPresentation_parentDismissal_effects()
  local Child = feature "Child" {
    state = { count = 0 },
    actions = { startButtonTapped = {}, tick = {} },
    reduce = on { startButtonTapped = startTimer, tick = tick },
  }
  local store = relua.TestStore(presenter(Child), { deps = { clock = "test" } })
  store:send("presentChild", function(s) s.child = { count = 0 } end)
  store:send("child.startButtonTapped")
  store:advance(2)
  store:receive("child.tick", function(s) s.child.count = 1 end)
  store:receive("child.tick", function(s) s.child.count = 2 end)
  store:send("child.dismiss", function(s) s.child = nil end)
end
port("testPresentation_parentDismissal_effects", testPresentation_parentDismissal_effects)

local function testPresentation_childDismissal_effects()
  local Child = feature "Child" {
    state = { count = 0 },
    actions = { closeButtonTapped = {}, startButtonTapped = {}, tick = {} },
    reduce = on { closeButtonTapped = closeButtonTapped, startButtonTapped = startTimer, tick = tick },
  }
  local store = relua.TestStore(presenter(Child), { deps = { clock = "test" } })
  store:send("presentChild", function(s) s.child = { count = 0 } end)
  store:send("child.startButtonTapped")
  store:advance(2)
  store:receive("child.tick", function(s) s.child.count = 1 end)
  store:receive("child.tick", function(s) s.child.count = 2 end)
  store:send("child.closeButtonTapped")
  store:receive("child.dismiss", function(s) s.child = nil end)
end
port("testPresentation_childDismissal_effects", testPresentation_childDismissal_effects)

-- Presenting a child with another id over the presented one replaces it: the old one's timer
-- stops, nothing arrives from it.
local function testPresentation_identifiableDismissal_effects()
  local Child = feature "Child" {
    state = { count = 0 },  -- and id, given by the parent
    actions = { startButtonTapped = {}, tick = {} },
    reduce = on { startButtonTapped = startTimer, tick = tick },
  }
  local Parent = feature "Parent" {
    state = {},
    actions = { presentChild = {} },
    compose = { relua.presents("child", Child) },
    reduce = on {
      presentChild = function(s, _, deps) s.child = { id = deps.uuid(), count = 0 } end,
    },
  }
  local store = relua.TestStore(Parent, { deps = { clock = "test", uuid = "incrementing" } })
  store:send("presentChild", function(s) s.child = { id = relua.uuid(0), count = 0 } end)
  store:send("child.startButtonTapped")
  store:advance(2)
  store:receive("child.tick", function(s) s.child.count = 1 end)
  store:receive("child.tick", function(s) s.child.count = 2 end)
  store:send("presentChild", function(s) s.child = { id = relua.uuid(1), count = 0 } end)
  store:advance(2)
  store:send("child.dismiss", function(s) s.child = nil end)
end
port("testPresentation_identifiableDismissal_effects", testPresentation_identifiableDismissal_effects)

local EmptyChild = feature "EmptyChild" { state = {} }

local function testPresentation_LeavePresented()
  local store = relua.TestStore(presenter(EmptyChild))
  store:send("presentChild", function(s) s.child = {} end)
end
port("testPresentation_LeavePresented", testPresentation_LeavePresented)

local function testPresentation_LeavePresented_FinishStore()
  local store = relua.TestStore(presenter(EmptyChild))
  store:send("presentChild", function(s) s.child = {} end)
  store:finish()
end
port("testPresentation_LeavePresented_FinishStore", testPresentation_LeavePresented_FinishStore)

-- Alerts (inert presentation: an alert has no reducer of its own) ---------------------------

local uhOh = { title = "Uh oh!" }
local uhOhDelete = { title = "Uh oh!", buttons = { { label = "Delete", action = "deleteButtonTapped" } } }

local function alertPresenter(buttons, alert, extra)
  local handlers = {
    presentAlert = function(s) s.alert = alert end,
  }
  for name, handler in pairs(extra or {}) do handlers[name] = handler end
  return feature "Parent" {
    state = { isDeleted = false },
    actions = { presentAlert = {} },
    compose = { relua.presents("alert", relua.alert(buttons)) },
    reduce = on(handlers),
  }
end

local function testInertPresentation()
  local store = relua.TestStore(alertPresenter({}, uhOh))
  store:send("presentAlert", function(s) s.alert = uhOh end)
end
port("testInertPresentation", testInertPresentation)

local function testInertPresentation_dismissal()
  local store = relua.TestStore(alertPresenter({}, uhOh))
  store:send("presentAlert", function(s) s.alert = uhOh end)
  store:send("alert.dismiss", function(s) s.alert = nil end)
end
port("testInertPresentation_dismissal", testInertPresentation_dismissal)

local function testInertPresentation_automaticDismissal()
  local Parent = alertPresenter({ deleteButtonTapped = {} }, uhOhDelete, {
    ["alert.deleteButtonTapped"] = function(s) s.isDeleted = true end,
  })
  local store = relua.TestStore(Parent)
  store:send("presentAlert", function(s) s.alert = uhOhDelete end)
  store:send("alert.deleteButtonTapped", function(s)
    s.alert = nil
    s.isDeleted = true
  end)
end
port("testInertPresentation_automaticDismissal", testInertPresentation_automaticDismissal)

-- Hydrated destinations ---------------------------------------------------------------------

local function testPresentation_hydratedDestination_childDismissal()
  local Child = counterChild({ closeButtonTapped = closeButtonTapped })
  local store = relua.TestStore(presenter(Child), { state = { child = { count = 0 } } })
  store:send("child.closeButtonTapped")
  store:receive("child.dismiss", function(s) s.child = nil end)
end
port("testPresentation_hydratedDestination_childDismissal", testPresentation_hydratedDestination_childDismissal)

local function testPresentation_rehydratedDestination_childDismissal()
  local ChildFeature = feature "ChildFeature" {
    state = {},
    actions = { cancel = {} },
    reduce = function(_, _, deps) return Effect.run(function() deps.dismiss() end) end,
  }
  local ChildContainerFeature = feature "ChildContainerFeature" {
    state = {},
    actions = { openChild = {} },
    compose = { relua.presents("child", ChildFeature) },
  }
  local ParentFeature = feature "ParentFeature" {
    state = { childContainer = {} },
    compose = { relua.scope("childContainer", ChildContainerFeature) },
    reduce = on {
      ["childContainer.openChild"] = function(s) s.childContainer.child = {} end,
    },
  }
  local store = relua.TestStore(ParentFeature)
  store:send("childContainer.openChild", function(s) s.childContainer.child = {} end)
  store:send("childContainer.child.cancel")
  store:receive("childContainer.child.dismiss", function(s) s.childContainer.child = nil end)

  store:send("childContainer.openChild", function(s) s.childContainer.child = {} end)
  store:send("childContainer.child.cancel")
  store:receive("childContainer.child.dismiss", function(s) s.childContainer.child = nil end)
end
port("testPresentation_rehydratedDestination_childDismissal", testPresentation_rehydratedDestination_childDismissal)

-- Destination enums and identity ------------------------------------------------------------

-- Presenting a child with the same id again keeps its timer; with a new id, or an alert, it stops.
local function testEnumPresentation()
  local Child = feature "Child" {
    state = { count = 0 },  -- and id
    actions = { closeButtonTapped = {}, startButtonTapped = {}, tick = {} },
    reduce = on { closeButtonTapped = closeButtonTapped, startButtonTapped = startTimer, tick = tick },
  }
  local Parent = feature "Parent" {
    state = { isDeleted = false },
    actions = { presentAlert = {}, presentChild = "string?" },
    compose = {
      relua.presents("destination", { alert = relua.alert { deleteButtonTapped = {} }, child = Child }),
    },
    reduce = on {
      ["destination.alert.deleteButtonTapped"] = function(s) s.isDeleted = true end,
      presentAlert = function(s) s.destination = { alert = uhOhDelete } end,
      presentChild = function(s, id, deps) s.destination = { child = { id = id or deps.uuid(), count = 0 } } end,
    },
  }
  local store = relua.TestStore(Parent, { deps = { clock = "test", uuid = "incrementing" } })
  store:send("presentChild", function(s) s.destination = { child = { id = relua.uuid(0), count = 0 } } end)
  store:send("destination.child.startButtonTapped")
  store:advance(2)
  store:receive("destination.child.tick", function(s) s.destination.child.count = 1 end)
  store:receive("destination.child.tick", function(s) s.destination.child.count = 2 end)
  store:send("destination.child.closeButtonTapped")
  store:receive("destination.dismiss", function(s) s.destination = nil end)
  store:send("presentChild", function(s) s.destination = { child = { id = relua.uuid(1), count = 0 } } end)
  store:advance(2)
  store:send("destination.child.startButtonTapped")
  store:advance(2)
  store:receive("destination.child.tick", function(s) s.destination.child.count = 1 end)
  store:receive("destination.child.tick", function(s) s.destination.child.count = 2 end)
  store:send("presentChild", relua.uuid(1), function(s) s.destination.child.count = 0 end)
  store:advance(2)
  store:receive("destination.child.tick", function(s) s.destination.child.count = 1 end)
  store:receive("destination.child.tick", function(s) s.destination.child.count = 2 end)
  store:send("presentAlert", function(s) s.destination = { alert = uhOhDelete } end)
  store:send("destination.alert.deleteButtonTapped", function(s)
    s.destination = nil
    s.isDeleted = true
  end)
end
port("testEnumPresentation", testEnumPresentation)

-- The child changes its own id: its in-flight effect belongs to the old identity and never
-- delivers.
local function testPresentation_DestinationEnum_IdentityChange()
  local Child = feature "Child" {
    state = function(deps) return { id = deps.uuid(), count = 0 } end,
    actions = { resetIdentity = {}, response = {}, tap = {} },
    reduce = on {
      resetIdentity = function(s, _, deps)
        s.count = 0
        s.id = deps.uuid()
      end,
      response = function(s) s.count = 999 end,
      tap = function(s, _, deps)
        s.count = s.count + 1
        return Effect.run(function(send)
          deps.clock.sleep(1)
          send("response")
        end)
      end,
    },
  }
  local Parent = feature "Parent" {
    state = {},
    actions = { presentChild1 = {} },
    compose = { relua.presents("destination", { child1 = Child, child2 = Child }) },
    reduce = on {
      presentChild1 = function(s, _, deps) s.destination = { child1 = Child:initial(deps) } end,
    },
  }
  local store = relua.TestStore(Parent, { deps = { clock = "test", uuid = "incrementing" } })
  store:send("presentChild1", function(s) s.destination = { child1 = { id = relua.uuid(0), count = 0 } } end)
  store:send("destination.child1.tap", function(s) s.destination.child1.count = 1 end)
  store:send("destination.child1.resetIdentity", function(s)
    s.destination.child1.id = relua.uuid(1)
    s.destination.child1.count = 0
  end)
  store:advance(1)  -- mainQueue.run(): the tap's response belonged to the old identity
  store:send("destination.dismiss", function(s) s.destination = nil end)
end
port("testPresentation_DestinationEnum_IdentityChange", testPresentation_DestinationEnum_IdentityChange)

-- Cancellation ids and navigation -----------------------------------------------------------

local function testNavigation_cancelID_childCancellation()
  local Child = feature "Child" {
    state = {},
    actions = { startButtonTapped = {}, stopButtonTapped = {} },
    reduce = on {
      startButtonTapped = function(_, _, deps) return Effect.run(function() never(deps) end):cancellable(42) end,
      stopButtonTapped = function() return Effect.cancel(42) end,
    },
  }
  local store = relua.TestStore(presenter(Child), { deps = { clock = "test" } })
  store:send("presentChild", function(s) s.child = {} end)
  store:send("child.startButtonTapped")
  store:send("child.stopButtonTapped")
  -- (TCA then cancels the presentChild send's task, which holds the presentation's own effect;
  -- relua's presentation has no such effect.)
end
port("testNavigation_cancelID_childCancellation", testNavigation_cancelID_childCancellation)

-- The parent's Effect.cancel reaches the effects of its child and grandchild with those ids.
local function testNavigation_cancelID_parentCancellation()
  local Grandchild = feature "Grandchild" {
    state = {},
    actions = { startButtonTapped = {} },
    reduce = on {
      startButtonTapped = function(_, _, deps)
        return Effect.run(function() never(deps) end):cancellable("Grandchild.effect")
      end,
    },
  }
  local Child = feature "Child" {
    state = {},
    actions = { presentGrandchild = {}, startButtonTapped = {} },
    compose = { relua.presents("grandchild", Grandchild) },
    reduce = on {
      presentGrandchild = function(s) s.grandchild = {} end,
      startButtonTapped = function(_, _, deps)
        return Effect.run(function() never(deps) end):cancellable("Child.effect")
      end,
    },
  }
  local Parent = presenter(Child, {
    stopButtonTapped = function()
      return Effect.merge(Effect.cancel("Child.effect"), Effect.cancel("Grandchild.effect"))
    end,
  })
  local store = relua.TestStore(Parent, { deps = { clock = "test" } })
  store:send("presentChild", function(s) s.child = {} end)
  store:send("child.presentGrandchild", function(s) s.child.grandchild = {} end)
  store:send("child.startButtonTapped")
  store:send("child.grandchild.startButtonTapped")
  store:send("stopButtonTapped")
end
port("testNavigation_cancelID_parentCancellation", testNavigation_cancelID_parentCancellation)

-- Two timers due at the same instant deliver in the order they went to sleep (child1's, then
-- child2's), as TCA's test clock resumes them.

local function respondingChild(withStop)
  local actions = { response = "integer", startButtonTapped = {} }
  local handlers = {
    response = function(s, value) s.count = value end,
    startButtonTapped = function(_, _, deps)
      return Effect.run(function(send)
        while true do
          deps.clock.sleep(1)
          send("response", 42)
        end
      end):cancellable("Child.effect")
    end,
  }
  if withStop then
    actions.stopButtonTapped = {}
    handlers.stopButtonTapped = function() return Effect.cancel("Child.effect") end
  end
  return feature "Child" { state = { count = 0 }, actions = actions, reduce = on(handlers) }
end

local function twoChildren(Child, extraActions, extraHandlers)
  local actions = { presentChildren = {} }
  local handlers = {
    presentChildren = function(s, _, deps)
      s.child1 = Child:initial(deps)
      s.child2 = Child:initial(deps)
    end,
  }
  for name, kind in pairs(extraActions or {}) do actions[name] = kind end
  for name, handler in pairs(extraHandlers or {}) do handlers[name] = handler end
  return feature "Parent" {
    state = {},
    actions = actions,
    compose = {
      relua.presents("child1", Child),
      relua.presents("child2", Child),
    },
    reduce = on(handlers),
  }
end

local function testNavigation_cancelID_parentCancelTwoChildren()
  local Parent = twoChildren(respondingChild(false), { stopButtonTapped = {} }, {
    stopButtonTapped = function() return Effect.cancel("Child.effect") end,
  })
  local store = relua.TestStore(Parent, { deps = { clock = "test" } })
  store:send("presentChildren", function(s)
    s.child1 = { count = 0 }
    s.child2 = { count = 0 }
  end)
  store:send("child1.startButtonTapped")
  store:advance(1)
  store:receive("child1.response", 42, function(s) s.child1.count = 42 end)
  store:send("child2.startButtonTapped")
  store:advance(1)
  store:receive("child1.response", 42)
  store:receive("child2.response", 42, function(s) s.child2.count = 42 end)
  store:send("stopButtonTapped")
  store:advance(10)  -- clock.run()
  store:send("child1.dismiss", function(s) s.child1 = nil end)
  store:send("child2.dismiss", function(s) s.child2 = nil end)
end
port("testNavigation_cancelID_parentCancelTwoChildren", testNavigation_cancelID_parentCancelTwoChildren)

local function testNavigation_cancelID_childCannotCancelSibling()
  local store = relua.TestStore(twoChildren(respondingChild(true)), { deps = { clock = "test" } })
  store:send("presentChildren", function(s)
    s.child1 = { count = 0 }
    s.child2 = { count = 0 }
  end)
  store:send("child1.startButtonTapped")
  store:advance(1)
  store:receive("child1.response", 42, function(s) s.child1.count = 42 end)
  store:send("child2.startButtonTapped")
  store:advance(1)
  store:receive("child1.response", 42)
  store:receive("child2.response", 42, function(s) s.child2.count = 42 end)

  store:send("child1.stopButtonTapped")
  store:advance(1)
  store:receive("child2.response", 42)

  store:send("child2.stopButtonTapped")
  store:advance(1)

  store:advance(10)  -- clock.run()
  store:send("child1.dismiss", function(s) s.child1 = nil end)
  store:send("child2.dismiss", function(s) s.child2 = nil end)
end
port("testNavigation_cancelID_childCannotCancelSibling", testNavigation_cancelID_childCannotCancelSibling)

local function testNavigation_cancelID_childCannotCancelIdentifiableSibling()
  local Child = respondingChild(true)
  local Parent = twoChildren(Child, {}, {
    presentChildren = function(s, _, deps)
      s.child1 = { id = deps.uuid(), count = 0 }
      s.child2 = { id = deps.uuid(), count = 0 }
    end,
  })
  local store = relua.TestStore(Parent, { deps = { clock = "test", uuid = "incrementing" } })
  store:send("presentChildren", function(s)
    s.child1 = { id = relua.uuid(0), count = 0 }
    s.child2 = { id = relua.uuid(1), count = 0 }
  end)
  store:send("child1.startButtonTapped")
  store:advance(1)
  store:receive("child1.response", 42, function(s) s.child1.count = 42 end)
  store:send("child2.startButtonTapped")
  store:advance(1)
  store:receive("child1.response", 42)
  store:receive("child2.response", 42, function(s) s.child2.count = 42 end)

  store:send("child1.stopButtonTapped")
  store:advance(1)
  store:receive("child2.response", 42)

  store:send("child2.stopButtonTapped")
  store:advance(1)

  store:advance(10)  -- clock.run()
  store:send("child1.dismiss", function(s) s.child1 = nil end)
  store:send("child2.dismiss", function(s) s.child2 = nil end)
end
port("testNavigation_cancelID_childCannotCancelIdentifiableSibling", testNavigation_cancelID_childCannotCancelIdentifiableSibling)

local function testNavigation_cancelID_childCannotCancelParent()
  local Child = feature "Child" {
    state = {},
    actions = { stopButtonTapped = {} },
    reduce = on { stopButtonTapped = function() return Effect.cancel("Parent.effect") end },
  }
  local Parent = feature "Parent" {
    state = { count = 0 },
    actions = { presentChild = {}, response = "integer", startButtonTapped = {}, stopButtonTapped = {} },
    compose = { relua.presents("child", Child) },
    reduce = on {
      presentChild = function(s) s.child = {} end,
      response = function(s, value) s.count = value end,
      startButtonTapped = function(_, _, deps)
        return Effect.run(function(send)
          deps.clock.sleep(1)
          send("response", 42)
        end):cancellable("Parent.effect")
      end,
      stopButtonTapped = function() return Effect.cancel("Parent.effect") end,
    },
  }
  local store = relua.TestStore(Parent, { deps = { clock = "test" } })
  store:send("presentChild", function(s) s.child = {} end)
  store:send("startButtonTapped")
  store:send("child.stopButtonTapped")
  store:advance(1)
  store:receive("response", 42, function(s) s.count = 42 end)
  store:send("stopButtonTapped")
  store:send("child.dismiss", function(s) s.child = nil end)
end
port("testNavigation_cancelID_childCannotCancelParent", testNavigation_cancelID_childCannotCancelParent)

-- The parent dismisses its grandchild by sending the grandchild's dismiss action; the
-- grandchild's in-flight effect is cancelled with it.
local function testNavigation_cancelID_parentDismissGrandchild()
  local Grandchild = feature "Grandchild" {
    state = {},
    actions = { response = "integer", startButtonTapped = {} },
    reduce = on {
      response = function() end,
      startButtonTapped = function(_, _, deps)
        return Effect.run(function(send)
          deps.clock.sleep(0)
          send("response", 42)
        end):cancellable("Grandchild.effect")
      end,
    },
  }
  local Child = feature "Child" {
    state = {},
    actions = { presentGrandchild = {} },
    compose = { relua.presents("grandchild", Grandchild) },
    reduce = on { presentGrandchild = function(s) s.grandchild = {} end },
  }
  local Parent = presenter(Child, {
    dismissGrandchild = function() return Effect.send("child.grandchild.dismiss") end,
  })
  local store = relua.TestStore(Parent, { deps = { clock = "test" } })
  store:send("presentChild", function(s) s.child = {} end)
  store:send("child.presentGrandchild", function(s) s.child.grandchild = {} end)

  store:send("child.grandchild.startButtonTapped")
  store:advance(0)
  store:receive("child.grandchild.response", 42)

  store:send("child.grandchild.startButtonTapped")
  store:send("dismissGrandchild")
  store:receive("child.grandchild.dismiss", function(s) s.child.grandchild = nil end)
  store:send("child.dismiss", function(s) s.child = nil end)
end
port("testNavigation_cancelID_parentDismissGrandchild", testNavigation_cancelID_parentDismissGrandchild)

-- Runtime warnings --------------------------------------------------------------------------

local function testRuntimeWarn_NilChild_SendDismissAction()
  local Parent = feature "Parent" { state = {}, compose = { relua.presents("child", EmptyChild) } }
  local store = relua.TestStore(Parent)
  store:send("child.dismiss")
  local warnings = store:warnings()
  expect(#warnings).to_be(1)
  expect(warnings[1]).to_contain("received a dismiss action when destination state was absent")
  expect(warnings[1]).to_contain("tca_presentation_test.lua:")
  expect(warnings[1]).to_contain("Action: child.dismiss")
end
port("testRuntimeWarn_NilChild_SendDismissAction", testRuntimeWarn_NilChild_SendDismissAction)

local function testRuntimeWarn_NilChild_SendChildAction()
  local Child = feature "Child" { state = {}, actions = { tap = {} } }
  local Parent = feature "Parent" { state = {}, compose = { relua.presents("child", Child) } }
  local store = relua.TestStore(Parent)
  store:send("child.tap")
  local warnings = store:warnings()
  expect(#warnings).to_be(1)
  expect(warnings[1]).to_contain("received a presentation action when destination state was absent")
  expect(warnings[1]).to_contain("tca_presentation_test.lua:")
  expect(warnings[1]).to_contain("Action: child.tap")
end
port("testRuntimeWarn_NilChild_SendChildAction", testRuntimeWarn_NilChild_SendChildAction)

-- Re-presenting on dismiss ------------------------------------------------------------------

-- The parent re-presents the same child while handling dismiss: the dismissal wins.
local function testRehydrateSameChild_SendDismissAction()
  local Parent = feature "Parent" {
    state = {},
    compose = { relua.presents("child", EmptyChild) },
    reduce = on { ["child.dismiss"] = function(s) s.child = {} end },
  }
  local store = relua.TestStore(Parent, { state = { child = {} } })
  store:send("child.dismiss", function(s) s.child = nil end)
end
port("testRehydrateSameChild_SendDismissAction", testRehydrateSameChild_SendDismissAction)

-- The parent presents a child with another id while handling dismiss: the new child stays.
local function testRehydrateDifferentChild_SendDismissAction()
  local DEADBEEF = "DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF"
  local Child = feature "Child" { state = {} }  -- id, given by the parent
  local Parent = feature "Parent" {
    state = {},
    compose = { relua.presents("child", Child) },
    reduce = on {
      ["child.dismiss"] = function(s, _, deps)
        if s.child and s.child.id == DEADBEEF then s.child = { id = deps.uuid() } end
      end,
    },
  }
  local store = relua.TestStore(Parent, {
    state = { child = { id = DEADBEEF } },
    deps = { uuid = "incrementing" },
  })
  store:send("child.dismiss", function(s) s.child = { id = relua.uuid(0) } end)
  store:send("child.dismiss", function(s) s.child = nil end)
end
port("testRehydrateDifferentChild_SendDismissAction", testRehydrateDifferentChild_SendDismissAction)
-- Long-living effects -----------------------------------------------------------------------

local function testPresentation_parentNilsOutChildWithLongLivingEffect()
  local Child = feature "Child" {
    state = { count = 0 },
    actions = { dismiss = {}, dismissMe = {}, task = {} },
    reduce = on {
      dismiss = function() return Effect.send("dismissMe") end,
      task = function(_, _, deps) return Effect.run(function() never(deps) end) end,
    },
  }
  local Parent = feature "Parent" {
    state = {},
    actions = { presentChild = {} },
    compose = { relua.presents("child", { child = Child }) },
    reduce = on {
      presentChild = function(s) s.child = { child = Child:initial() } end,
      ["child.child.dismissMe"] = function(s) s.child = nil end,
    },
  }
  local store = relua.TestStore(Parent, { deps = { clock = "test" } })
  store:send("presentChild", function(s) s.child = { child = { count = 0 } } end)
  store:send("child.child.task")
  store:send("child.child.dismiss")
  store:receive("child.child.dismissMe", function(s) s.child = nil end)
end
port("testPresentation_parentNilsOutChildWithLongLivingEffect", testPresentation_parentNilsOutChildWithLongLivingEffect)

local function testPresentation_leaveChildPresented()
  local store = relua.TestStore(presenter(EmptyChild))
  store:send("presentChild", function(s) s.child = {} end)
end
port("testPresentation_leaveChildPresented", testPresentation_leaveChildPresented)

-- TCA expects the test to fail at its end ("An effect returned for this action is still
-- running"); relua's runner would fail the test at its end, so the check is made with finish.
local function testPresentation_leaveChildPresented_WithLongLivingEffect()
  local Child = feature "Child" {
    state = {},
    actions = { tap = {} },
    reduce = function(_, _, deps) return Effect.run(function() never(deps) end) end,
  }
  local store = relua.TestStore(presenter(Child), { deps = { clock = "test" } })
  store:send("presentChild", function(s) s.child = {} end)
  store:send("child.tap")
  expect(function() store:finish(0.1) end)
    .to_error("An effect returned for this action is still running. It must complete before the end of the test.")
  store:skipInFlightEffects()
end
port("testPresentation_leaveChildPresented_WithLongLivingEffect", testPresentation_leaveChildPresented_WithLongLivingEffect)

-- The child's tap cancels only its own in-flight tap (cancelInFlight), not the parent's effect
-- with the same id.
local function testCancelInFlightEffects()
  local Child = feature "Child" {
    state = { count = 0 },
    actions = { response = "integer", tap = {} },
    reduce = on {
      response = function(s, value) s.count = value end,
      tap = function(_, _, deps)
        return Effect.run(function(send)
          deps.clock.sleep(1)
          send("response", 42)
        end):cancellable("CancelID", true)
      end,
    },
  }
  local Parent = feature "Parent" {
    state = { count = 0 },
    actions = { presentChild = {}, response = "integer" },
    compose = { relua.presents("child", Child) },
    reduce = on {
      presentChild = function(s, _, deps)
        s.child = { count = 0 }
        return Effect.run(function(send)
          deps.clock.sleep(2)
          send("response", 42)
        end):cancellable("CancelID")
      end,
      response = function(s, value) s.count = value end,
    },
  }
  local store = relua.TestStore(Parent, { deps = { clock = "test" } })
  store:send("presentChild", function(s) s.child = { count = 0 } end)
  store:send("child.tap")
  store:advance(0.5)
  store:send("child.tap")
  store:advance(1)
  store:receive("child.response", 42, function(s) s.child.count = 42 end)
  store:advance(0.5)
  store:receive("response", 42, function(s) s.count = 42 end)
  store:send("child.dismiss", function(s) s.child = nil end)
end
port("testCancelInFlightEffects", testCancelInFlightEffects)

-- TCA's parent has three reducers: one before the ifLet (tapBefore nils the child), the ifLet's
-- base (tapChild presents it), one after (tapAfter nils it). A relua feature has one own reducer,
-- placed before or after its children with relua.own: so two parents, one per placement.
local function testOuterCancellation()
  local Child = feature "Child" {
    state = {},
    actions = { onAppear = {} },
    reduce = function(_, _, deps) return Effect.run(function() never(deps) end) end,
  }
  local OwnFirst = feature "OwnFirst" {
    state = {},
    actions = { tapBefore = {}, tapChild = {} },
    compose = { relua.own, relua.presents("child", Child) },
    reduce = on {
      tapBefore = function(s) s.child = nil end,
      tapChild = function(s) s.child = {} end,
    },
  }
  local OwnLast = feature "OwnLast" {
    state = {},
    actions = { tapAfter = {}, tapChild = {} },
    compose = { relua.presents("child", Child), relua.own },
    reduce = on {
      tapAfter = function(s) s.child = nil end,
      tapChild = function(s) s.child = {} end,
    },
  }
  local before = relua.TestStore(OwnFirst, { deps = { clock = "test" } })
  before:send("tapChild", function(s) s.child = {} end)
  before:send("child.onAppear")
  before:send("tapBefore", function(s) s.child = nil end)

  local after = relua.TestStore(OwnLast, { deps = { clock = "test" } })
  after:send("tapChild", function(s) s.child = {} end)
  after:send("child.onAppear")
  after:send("tapAfter", function(s) s.child = nil end)
  after:send("tapAfter")
end
port("testOuterCancellation", testOuterCancellation)

-- A child action of another kind while an alert is presented is a warning; the alert stays.
local function testPresentation_leaveAlertPresentedForNonAlertActions()
  local Child = counterChild()
  local Parent = feature "Parent" {
    state = { isDeleted = false },
    actions = { presentAlert = {}, presentChild = {} },
    compose = {
      relua.presents("destination", { alert = relua.alert { deleteButtonTapped = {} }, child = Child }),
    },
    reduce = on {
      ["destination.alert.deleteButtonTapped"] = function(s) s.isDeleted = true end,
      presentAlert = function(s) s.destination = { alert = uhOhDelete } end,
      presentChild = function(s) s.destination = { child = Child:initial() } end,
    },
  }
  local store = relua.TestStore(Parent)
  store:send("presentAlert", function(s) s.destination = { alert = uhOhDelete } end)
  store:send("destination.child.decrementButtonTapped")
  local warnings = store:warnings()
  expect(#warnings).to_be(1)
  expect(warnings[1]).to_contain("destination.child.decrementButtonTapped")
  expect(warnings[1]).to_contain("alert")
  expect(store:state().destination).to_equal({ alert = uhOhDelete })
end
port("testPresentation_leaveAlertPresentedForNonAlertActions", testPresentation_leaveAlertPresentedForNonAlertActions)

-- A feature presenting itself: a dismiss two levels down closes only the innermost one.
local function testNestedDismiss()
  local NestedDismissFeature
  NestedDismissFeature = feature "NestedDismissFeature" {
    state = {},
    actions = { dismissButtonTapped = {}, presentButtonTapped = {} },
    compose = { relua.presents("child", function() return NestedDismissFeature end) },
    reduce = on {
      dismissButtonTapped = function(_, _, deps) return Effect.run(function() deps.dismiss() end) end,
      presentButtonTapped = function(s) s.child = {} end,
    },
  }
  local store = relua.TestStore(NestedDismissFeature)
  store:send("presentButtonTapped", function(s) s.child = {} end)
  store:send("child.presentButtonTapped", function(s) s.child.child = {} end)
  store:send("child.child.dismissButtonTapped")
  store:receive("child.child.dismiss", function(s) s.child.child = nil end)
end
port("testNestedDismiss", testNestedDismiss)

