local relua = require "relua"
local Destinations = require "Features.CaseStudies.Destinations"


local function newStore(state)
  return relua.TestStore(Destinations, { state = state, deps = { clock = "test" } })
end

local theAlert = {
  title = "Alert!",
  message = "This is an alert",
  buttons = { { label = "OK", action = "confirm" }, { label = "Cancel", action = "cancel" } },
}

local function counter(count, running)
  return { count = count, isTimerRunning = running or false }
end

describe("Destinations: presenting", function()
  it("starts with nothing presented", function()
    local store = newStore()
    expect(store:screens()).to_equal({ "" })
    expect(store:view()).to_be("[Alert :showAlert] [Counter :showCounter] [Animations :showAnimations]")
  end)

  it("presents a counter, which then handles its own actions", function()
    local store = newStore()
    store:send("showCounter", function(s) s.destination = { counter = counter(0) } end)
    expect(store:screens()).to_equal({ "", "destination.counter" })
    store:send("destination.counter.increment", function(s) s.destination.counter.count = 1 end)
    store:send("destination.dismiss", function(s) s.destination = nil end)
    expect(store:screens()).to_equal({ "" })
  end)

  it("presents animations", function()
    local store = newStore()
    store:send("showAnimations", function(s) s.destination = { animations = { circleColor = "black", isCircleScaled = false } } end)
    store:send("destination.animations.toggleScale", function(s) s.destination.animations.isCircleScaled = true end)
    expect(store:screens()).to_equal({ "", "destination.animations" })
    expect(store:view()).to_contain("( black circle, scaled )")
  end)

  it("opens on a destination from a saved state (deep link)", function()
    local store = newStore({ destination = { counter = counter(5) } })
    expect(store:screens()).to_equal({ "", "destination.counter" })
    store:send("destination.counter.decrement", function(s) s.destination.counter.count = 4 end)
  end)
end)

describe("Destinations: alert", function()
  it("is dismissed automatically after its button action, which the parent handles", function()
    local store = newStore()
    store:send("showAlert", function(s) s.destination = { alert = theAlert } end)
    expect(store:screens()).to_equal({ "", "destination.alert" })
    store:send("destination.alert.confirm", function(s)
      s.answer = "confirm"
      s.destination = nil
    end)
    expect(store:screens()).to_equal({ "" })
    store:send("showAlert", function(s) s.destination = { alert = theAlert } end)
    store:send("destination.alert.cancel", function(s)
      s.answer = "cancel"
      s.destination = nil
    end)
  end)

  it("only has its declared buttons", function()
    local store = newStore()
    expect(function() store:send("destination.alert.delete") end)
      .to_error("the alert destination.alert has the button actions")
  end)
end)

describe("Destinations: identity and effects", function()
  it("editing a destination's contents keeps its identity: its timer keeps running", function()
    local store = newStore()
    store:send("showCounter", function(s) s.destination = { counter = counter(0) } end)
    store:send("destination.counter.toggleTimer", function(s) s.destination.counter.isTimerRunning = true end)
    store:advance(1)
    store:receive("destination.counter.timerTicked", function(s) s.destination.counter.count = 1 end)
    store:send("destination.counter.increment", function(s) s.destination.counter.count = 2 end)
    store:advance(1)
    store:receive("destination.counter.timerTicked", function(s) s.destination.counter.count = 3 end)
    store:send("destination.counter.toggleTimer", function(s) s.destination.counter.isTimerRunning = false end)
    store:advance(5)
    store:finish()
  end)

  it("swap gives a new identity and cancels the old destination's effects", function()
    local store = newStore()
    store:send("showCounter", function(s) s.destination = { counter = counter(0) } end)
    store:send("destination.counter.toggleTimer", function(s) s.destination.counter.isTimerRunning = true end)
    store:advance(1)
    store:receive("destination.counter.timerTicked", function(s) s.destination.counter.count = 1 end)
    store:send("swap", function(s) s.destination = { animations = { circleColor = "black", isCircleScaled = false } } end)
    expect(store:screens()).to_equal({ "", "destination.animations" })
    store:advance(5)  -- the counter's timer was cancelled: nothing arrives
    store:finish()
  end)

  it("swapping back cancels the animation's rainbow too", function()
    local store = newStore()
    store:send("showAnimations", function(s) s.destination = { animations = { circleColor = "black", isCircleScaled = false } } end)
    store:send("destination.animations.rainbowButtonTapped")
    store:receive("destination.animations.setColor", "red", function(s) s.destination.animations.circleColor = "red" end)
    store:advance(1)
    store:receive("destination.animations.setColor", "orange", function(s) s.destination.animations.circleColor = "orange" end)
    store:send("swap", function(s) s.destination = { counter = counter(0) } end)
    store:advance(10)
    store:finish()
  end)

  it("dismissing cancels the presented feature's effects", function()
    local store = newStore()
    store:send("showCounter", function(s) s.destination = { counter = counter(0) } end)
    store:send("destination.counter.toggleTimer", function(s) s.destination.counter.isTimerRunning = true end)
    store:send("destination.dismiss", function(s) s.destination = nil end)
    store:advance(5)
    store:finish()
  end)
end)

describe("Destinations: the parent reacts to its child", function()
  it("dismisses the counter when it goes below 0, cancelling its timer", function()
    local store = newStore()
    store:send("showCounter", function(s) s.destination = { counter = counter(0) } end)
    store:send("destination.counter.toggleTimer", function(s) s.destination.counter.isTimerRunning = true end)
    store:send("destination.counter.decrement", function(s) s.destination = nil end)
    store:advance(5)
    store:finish()
  end)

  it("keeps the counter at 0", function()
    local store = newStore({ destination = { counter = counter(1) } })
    store:send("destination.counter.decrement", function(s) s.destination.counter.count = 0 end)
  end)

  it("lets the child dismiss itself with deps.dismiss()", function()
    local store = newStore()
    store:send("showCounter", function(s) s.destination = { counter = counter(0) } end)
    store:send("destination.counter.doneButtonTapped")
    store:receive("destination.dismiss", function(s) s.destination = nil end)
    store:finish()
  end)
end)

describe("Destinations: failure paths", function()
  it("an action for a destination that is not presented is a runtime warning, and is ignored", function()
    local store = newStore()
    store:send("destination.counter.increment")
    local warnings = store:warnings()
    expect(#warnings).to_be(1)
    expect(warnings[1]).to_contain("counter")
    expect(warnings[1]).to_contain("increment")
    expect(warnings[1]).to_contain("ignored")
  end)

  it("an action for another kind than the one presented is a runtime warning, and is ignored", function()
    local store = newStore()
    store:send("showCounter", function(s) s.destination = { counter = counter(0) } end)
    store:send("destination.animations.toggleScale")  -- no expectation: the state must not change
    local warnings = store:warnings()
    expect(#warnings).to_be(1)
    expect(warnings[1]).to_contain("animations.toggleScale")
    expect(warnings[1]).to_contain("counter")
    expect(warnings[1]).to_contain("ignored")
  end)

  it("a child's timer still running at a send is caught by the exhaustive store", function()
    local store = newStore()
    store:send("showCounter", function(s) s.destination = { counter = counter(0) } end)
    store:send("destination.counter.toggleTimer", function(s) s.destination.counter.isTimerRunning = true end)
    store:advance(1)
    expect(function()
      store:send("destination.counter.increment", function(s) s.destination.counter.count = 1 end)
    end).to_error("Must handle 1 received action")
    store:skipReceivedActions()
    store:send("destination.dismiss", function(s) s.destination = nil end)
    store:finish()
  end)

  it("a kind the destination cannot be is an error naming the kinds", function()
    local store = newStore()
    expect(function() store:send("destination.sheet.increment") end)
      .to_error("'destination' presents alert, animations, counter (or dismiss), not 'sheet'")
  end)
end)
