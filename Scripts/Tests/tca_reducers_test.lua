-- TCA's OnChangeReducerTests, and reducers of a feature's own before and after its children
-- (TCA's `Reduce` placed before or after `Scope` in a body), ported step for step to the DSL.
--
-- Mapping: `Reduce { … }.onChange(of: \.count) { old, new in Reduce { … } }` is
-- `compose = { relua.own, relua.onChange("count", function(s, old, new, deps, action) … end) }`;
-- a `removeDuplicates:` that compares a projection is a function watched instead of a path
-- (the onChange runs when what the function returns differs, as Lua sees values).
local relua = require "relua"
local feature, on, Effect = relua.feature, relua.on, relua.Effect

local port = require "Tests.Support.TCAPort"("TCA OnChangeReducerTests")

local function testOnChange()
  local Feature = feature "Feature" {
    state = { count = 0, description = "" },
    actions = { incrementButtonTapped = {}, decrementButtonTapped = {} },
    compose = {
      relua.own,
      relua.onChange("count", function(s, _, new)
        s.description = ("!"):rep(new)
        if new > 1 then return Effect.send("decrementButtonTapped") end
      end),
    },
    reduce = on {
      decrementButtonTapped = function(s) s.count = s.count - 1 end,
      incrementButtonTapped = function(s) s.count = s.count + 1 end,
    },
  }
  local store = relua.TestStore(Feature)
  store:send("incrementButtonTapped", function(s) s.count = 1; s.description = "!" end)
  store:send("incrementButtonTapped", function(s) s.count = 2; s.description = "!!" end)
  store:receive("decrementButtonTapped", function(s) s.count = 1; s.description = "!" end)
end
port("testOnChange", testOnChange)

local function testOnChangeChildStates()
  local ChildFeature = feature "ChildFeature" {
    state = { id = 0, counter = 0 },
    actions = { incrementButtonTapped = {} },
    reduce = on { incrementButtonTapped = function(s) s.counter = s.counter + 1 end },
  }
  local function ids(s)
    local result = {}
    for index, child in ipairs(s.childStates) do result[index] = child.id end
    return result
  end
  local Feature = feature "Feature" {
    state = { childStates = relua.identified { { id = 0, counter = 0 } }, onChangeUpdateCounter = 0 },
    actions = { addChildState = "table" },
    compose = {
      relua.forEach("childStates", ChildFeature),
      -- Only when the ids of `childStates` change (TCA's `removeDuplicates:` on the ids).
      relua.onChange(ids, function(s) s.onChangeUpdateCounter = s.onChangeUpdateCounter + 1 end),
    },
    reduce = on { addChildState = function(s, child) s.childStates[#s.childStates + 1] = child end },
  }
  local store = relua.TestStore(Feature)
  store:send("childStates[id=0].incrementButtonTapped", function(s) s.childStates[1].counter = 1 end)
  store:send("addChildState", { id = 1, counter = 0 }, function(s)
    s.childStates[2] = { id = 1, counter = 0 }
    s.onChangeUpdateCounter = 1
  end)
  store:send("childStates[id=1].incrementButtonTapped", function(s) s.childStates[2].counter = 1 end)
end
port("testOnChangeChildStates", testOnChangeChildStates)

local function testOnChangeTuple()
  local Feature = feature "Feature" {
    state = { countA = 0, countB = 0, sum = 0 },
    actions = { incrementButtonTapped = {}, noop = {}, updateSum = "integer" },
    compose = {
      relua.own,
      relua.onChange(function(s) return { s.countA, s.countB } end, function(s)
        return Effect.send("updateSum", s.countA + s.countB)
      end),
    },
    reduce = on {
      incrementButtonTapped = function(s) s.countA = s.countA + 1; s.countB = s.countB + 1 end,
      updateSum = function(s, sum) s.sum = sum end,
    },
  }
  local store = relua.TestStore(Feature)
  store:send("incrementButtonTapped", function(s) s.countA = 1; s.countB = 1 end)
  store:receive("updateSum", 2, function(s) s.sum = 2 end)
  store:send("noop")
end
port("testOnChangeTuple", testOnChangeTuple)

describe("onChange", function()
  it("gets the old and the new value and the action, and sees what the children changed", function()
    local Child = feature "Child" {
      state = { count = 0 }, actions = { increment = {} },
      reduce = on { increment = function(s) s.count = s.count + 1 end },
    }
    local seen = {}
    local Parent = feature "Parent" {
      state = { child = { count = 0 }, log = {} },
      compose = {
        relua.scope("child", Child),
        relua.onChange("child.count", function(s, old, new, _, action)
          s.log[#s.log + 1] = ("%d→%d by %s"):format(old, new, action.name)
          seen[#seen + 1] = action.pattern
        end),
      },
    }
    local store = relua.TestStore(Parent)
    store:send("child.increment", function(s) s.child.count = 1; s.log = { "0→1 by child.increment" } end)
    expect(seen[1]).to_be("child.increment")
  end)

  it("does not run when the value is the same again (as Lua sees it)", function()
    local F = feature "F" {
      state = { values = {}, runs = 0 },
      actions = { reset = {} },
      compose = { relua.onChange("values", function(s) s.runs = s.runs + 1 end) },
      reduce = on { reset = function(s) s.values = {} end },
    }
    local store = relua.TestStore(F)
    store:send("reset")
  end)

  it("a raising handler fails the send at its line and undoes it", function()
    local F = feature "F" {
      state = { count = 0 },
      actions = { increment = {} },
      compose = { relua.own, relua.onChange("count", function() error("boom") end) },
      reduce = on { increment = function(s) s.count = s.count + 1 end },
    }
    local store = relua.Store(F)
    local ok, err = pcall(store.send, store, "increment")
    expect(ok).to_be(false)
    expect(tostring(err)).to_match("tca_reducers_test%.lua:%d+: boom")
    expect(store:state().count).to_be(0)
  end)

  it("a raising watch function fails the send and undoes it", function()
    local F = feature "F" {
      state = { count = 0 },
      actions = { increment = {} },
      compose = { relua.onChange(function(s) return s.count.x end, function() end) },
      reduce = on { increment = function(s) s.count = s.count + 1 end },
    }
    local store = relua.Store(F)
    local ok, err = pcall(store.send, store, "increment")
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("index")
    expect(store:state().count).to_be(0)
  end)

  it("checks its arguments where it is declared", function()
    expect(function() relua.onChange(42, function() end) end).to_error("relua.onChange: expected a state path")
    expect(function() relua.onChange("count") end).to_error("expected a function(state, old, new, deps, action)")
    local ok, err = pcall(function()
      local F = feature "F" { state = { count = 0 }, compose = { relua.onChange("count..x", function() end) } }
      relua.Store(F)
    end)
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("relua.onChange: cannot read the state path 'count..x'")
  end)
end)

describe("reducers of the feature's own, before and after its children (TCA's Reduce around Scope)", function()
  local Child = feature "Child" {
    state = { count = 0 }, actions = { increment = {} },
    reduce = on { increment = function(s) s.count = s.count + 1 end },
  }

  it("run in declaration order around the scopes", function()
    local Parent = feature "Parent" {
      state = { child = { count = 0 }, seen = {} },
      compose = {
        relua.reduce(on { ["child.increment"] = function(s) s.seen[#s.seen + 1] = "before " .. s.child.count end }),
        relua.scope("child", Child),
        relua.own,
        relua.reduce(function(s, action)
          if action.name == "child.increment" then s.seen[#s.seen + 1] = "last " .. s.child.count end
        end),
      },
      reduce = on { ["child.increment"] = function(s) s.seen[#s.seen + 1] = "own " .. s.child.count end },
    }
    local store = relua.TestStore(Parent)
    store:send("child.increment", function(s)
      s.child.count = 1
      s.seen = { "before 0", "own 1", "last 1" }
    end)
  end)

  it("a plain table of handlers is relua.on", function()
    local Parent = feature "Parent" {
      state = { child = { count = 0 }, before = -1 },
      compose = {
        relua.reduce { ["child.increment"] = function(s) s.before = s.child.count end },
        relua.scope("child", Child),
      },
    }
    local store = relua.TestStore(Parent)
    store:send("child.increment", function(s) s.child.count = 1; s.before = 0 end)
  end)

  it("their effects run and their errors undo the whole send", function()
    local Parent = feature "Parent" {
      state = { child = { count = 0 }, echoed = 0 },
      actions = { echo = {} },
      compose = {
        relua.scope("child", Child),
        relua.reduce(on {
          ["child.increment"] = function(s) if s.child.count > 1 then error("too many") end return Effect.send("echo") end,
          echo = function(s) s.echoed = s.echoed + 1 end,
        }),
      },
    }
    local store = relua.Store(Parent)
    store:send("child.increment")
    expect(store:state().echoed).to_be(1)
    local ok, err = pcall(store.send, store, "child.increment")
    expect(ok).to_be(false)
    expect(tostring(err)).to_match("tca_reducers_test%.lua:%d+: too many")
    expect(store:state().child.count).to_be(1)
  end)

  it("handlers that match no action are refused, naming the relua.reduce line", function()
    local ok, err = pcall(function()
      local Parent = feature "Parent" { compose = { relua.scope("child", Child), relua.reduce(on { ["child.incremnt"] = function() end }) } }
      relua.Store(Parent)
    end)
    expect(ok).to_be(false)
    expect(tostring(err)).to_match("tca_reducers_test%.lua:%d+: feature 'Parent': the handler 'child.incremnt' matches no action")
    expect(function() relua.reduce(42) end).to_error("relua.reduce: expected relua.on")
    expect(function() feature "Twice" { compose = { relua.own, relua.own } } end).to_error("relua.own is in compose twice")
  end)
end)
