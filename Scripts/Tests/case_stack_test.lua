local relua = require "relua"
local Stack = require "Features.CaseStudies.Stack"


local function newStore(state)
  return relua.TestStore(Stack, { state = state, deps = { clock = "test" } })
end

local function detail(id, level, count, running)
  return { id = id, detail = { level = level, count = count or 0, isTimerRunning = running or false } }
end

-- A stack three screens deep: ids 0, 1, 2 at levels 1, 2, 3.
local function threeDeep() return { path = { detail(0, 1), detail(1, 2), detail(2, 3) } } end

describe("Stack: pushing", function()
  it("pushes detail screens with ids counting from 0", function()
    local store = newStore()
    expect(store:screens()).to_equal({ "" })
    store:send("pushDetail", function(s) s.path = { detail(0, 1) } end)
    store:send("pushDetail", function(s) s.path[2] = detail(1, 1) end)
    expect(store:screens()).to_equal({ "", "path[id=0].detail", "path[id=1].detail" })
  end)

  it("the parent reacts to an element's action, knowing its stack id", function()
    local store = newStore()
    store:send("pushDetail", function(s) s.path = { detail(0, 1) } end)
    store:send("path[id=0].detail.goDeeper", function(s) s.path[2] = detail(1, 2) end)
    store:send("path[id=1].detail.goDeeper", function(s) s.path[3] = detail(2, 3) end)
    store:send("path[id=0].detail.goDeeper", function(s) s.path[4] = detail(3, 2) end)
    expect(store:screens()).to_equal({ "", "path[id=0].detail", "path[id=1].detail", "path[id=2].detail", "path[id=3].detail" })
  end)

  it("opens three screens deep from a saved state (deep link)", function()
    local store = newStore(threeDeep())
    expect(store:screens()).to_equal({ "", "path[id=0].detail", "path[id=1].detail", "path[id=2].detail" })
    expect(store:view()).to_be("Level 3: 0   [- :decrement] [+ :increment]\n[Timer :startTimer] [Go deeper :goDeeper] [Close :closeButtonTapped]")
  end)
end)

describe("Stack: element actions by stack id", function()
  it("reach only the element with that id", function()
    local store = newStore(threeDeep())
    store:send("path[id=1].detail.increment", function(s) s.path[2].detail.count = 1 end)
    store:send("path[id=2].detail.decrement", function(s) s.path[3].detail.count = -1 end)
    store:send("path[id=1].detail.increment", function(s) s.path[2].detail.count = 2 end)
  end)

  it("an element's effect sends its actions back to that element", function()
    local store = newStore(threeDeep())
    store:send("path[id=1].detail.startTimer", function(s) s.path[2].detail.isTimerRunning = true end)
    store:advance(1)
    store:receive("path[id=1].detail.timerTicked", function(s) s.path[2].detail.count = 1 end)
    store:send("popToRoot", function(s) s.path = {} end)
    store:advance(5)
    store:finish()
  end)
end)

describe("Stack: popping", function()
  it("popFrom removes that element and all after it", function()
    local store = newStore(threeDeep())
    store:send("path.popFrom", 1, function(s) s.path = { detail(0, 1) } end)
    expect(store:screens()).to_equal({ "", "path[id=0].detail" })
    store:send("path.popFrom", 0, function(s) s.path = {} end)
    expect(store:screens()).to_equal({ "" })
  end)

  it("popFrom cancels the effects of every element it removes", function()
    local store = newStore(threeDeep())
    store:send("path[id=2].detail.startTimer", function(s) s.path[3].detail.isTimerRunning = true end)
    store:advance(1)
    store:receive("path[id=2].detail.timerTicked", function(s) s.path[3].detail.count = 1 end)
    store:send("path.popFrom", 1, function(s) s.path = { detail(0, 1) } end)
    store:advance(5)  -- the popped screen's timer is gone: nothing arrives
    store:finish()
  end)

  it("an element pops itself (and those above it) with deps.dismiss()", function()
    local store = newStore(threeDeep())
    store:send("path[id=1].detail.closeButtonTapped")
    store:receive("path.popFrom", 1, function(s) s.path = { detail(0, 1) } end)
    store:finish()
  end)

  it("ids follow from the state: the next push takes one more than the largest id left", function()
    local store = newStore(threeDeep())
    store:send("path.popFrom", 1, function(s) s.path = { detail(0, 1) } end)
    store:send("pushDetail", function(s) s.path[2] = detail(1, 1) end)
    expect(store:screens()).to_equal({ "", "path[id=0].detail", "path[id=1].detail" })
  end)

  it("popToRoot empties the stack", function()
    local store = newStore(threeDeep())
    store:send("popToRoot", function(s) s.path = {} end)
    expect(store:view()).to_be("Root   [Push detail › :pushDetail]")
  end)
end)

describe("Stack: failure paths", function()
  it("an action for an element that is not in the stack is a runtime warning, and is ignored", function()
    local store = newStore(threeDeep())
    store:send("path[id=7].detail.increment")  -- no expectation: the state must not change
    local warnings = store:warnings()
    expect(#warnings).to_be(1)
    expect(warnings[1]).to_contain("missing element")
    expect(warnings[1]).to_contain("7")
    expect(warnings[1]).to_contain("ignored")
  end)

  it("popFrom for an id that is not in the stack is a runtime warning", function()
    local store = newStore(threeDeep())
    store:send("path.popFrom", 9)
    local warnings = store:warnings()
    expect(#warnings).to_be(1)
    expect(warnings[1]).to_contain("popFrom")
    expect(warnings[1]).to_contain("9")
  end)

  it("a kind the stack does not hold is an error naming the kinds", function()
    local store = newStore(threeDeep())
    expect(function() store:send("path[id=0].settings.increment") end)
      .to_error("the stack 'path' holds detail, not 'settings'")
  end)

  it("an element action without its id is an error showing the syntax", function()
    local store = newStore(threeDeep())
    expect(function() store:send("path.detail.increment") end)
      .to_error("write path[id=ID].<kind>.action, path.popFrom or path.push")
  end)

  it("popFrom needs an integer id", function()
    local store = newStore(threeDeep())
    expect(function() store:send("path.popFrom", "1") end).to_error("expected integer")
  end)
end)
