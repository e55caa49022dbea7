local relua = require "relua"
local Game = require "Features.GuessingGame"

local function newStore(state)
  return relua.TestStore(Game, { state = state, deps = { uuid = "incrementing", random = { 5, -3, 7 } } })
end

describe("Game", function()
  it("starts on a fresh round with no results", function()
    local store = newStore()
    local s = store:state()
    expect(s.counter).to_equal({ id = relua.uuid(0), secret = 5, count = 0 })
    expect(#s.results).to_be(0)
    expect(store:screens()).to_equal({ "" })
  end)

  it("records exactly one result per Next (games played does not stay 1)", function()
    local store = newStore()
    store:send("counter.setCount", 5, function(s) s.counter.count = 5 end)
    store:send("counter.playNext", function(s)
      s.results = { { id = relua.uuid(0), secret = 5, count = 5, correct = true } }
      s.counter = { id = relua.uuid(1), secret = -3, count = 0 }
    end)
    store:send("counter.increment", function(s) s.counter.count = 1 end)
    store:send("counter.playNext", function(s)
      s.results[2] = { id = relua.uuid(1), secret = -3, count = 1, correct = false }
      s.counter = { id = relua.uuid(2), secret = 7, count = 0 }
    end)
    expect(#store:state().results).to_be(2)
  end)

  it("presents the results, and dismissing writes removed rows back", function()
    local store = newStore()
    store:send("counter.playNext", function(s)
      s.results = { { id = relua.uuid(0), secret = 5, count = 0, correct = false } }
      s.counter = { id = relua.uuid(1), secret = -3, count = 0 }
    end)
    store:send("counter.playNext", function(s)
      s.results[2] = { id = relua.uuid(1), secret = -3, count = 0, correct = false }
      s.counter = { id = relua.uuid(2), secret = 7, count = 0 }
    end)
    store:send("showResults", function(s) s.destination = { results = { results = copy(s.results) } } end)
    expect(store:screens()).to_equal({ "", "destination.results" })
    store:send("destination.results.remove", { 1 }, function(s)
      table.remove(s.destination.results.results, 1)
    end)
    store:send("destination.dismiss", function(s)
      s.results = { { id = relua.uuid(1), secret = -3, count = 0, correct = false } }
      s.destination = nil
    end)
    expect(store:screens()).to_equal({ "" })
  end)

  it("opens on the results list from a saved state (deep link)", function()
    local saved = [[{
      "counter": { "id": "00000000-0000-0000-0000-000000000009", "secret": 3, "count": 3 },
      "results": [ { "id": "00000000-0000-0000-0000-000000000008", "secret": 1, "count": 1, "correct": true } ],
      "destination": { "results": { "results": [ { "id": "00000000-0000-0000-0000-000000000008", "secret": 1, "count": 1, "correct": true } ] } }
    }]]
    local store = relua.TestStore(Game, { json = saved })
    expect(store:screens()).to_equal({ "", "destination.results" })
    store:send("destination.results.remove", { 1 }, function(s) s.destination.results.results = {} end)
    store:send("destination.dismiss", function(s) s.results = {}; s.destination = nil end)
  end)
end)

describe("bad input", function()
  it("names the feature and what it accepts for an undeclared action", function()
    local store = newStore()
    expect(function() store:send("counter.incremnt") end)
      .to_error("Counter has no action 'incremnt' (in 'counter.incremnt'); it accepts: decrement, increment, playNext, setCount(integer)")
  end)

  it("rejects a payload of the wrong type", function()
    local store = newStore()
    expect(function() store:send("counter.setCount", "ten") end)
      .to_error("action 'counter.setCount' of Game: expected integer, got string \"ten\"")
  end)

  it("leaves the state unchanged when a reducer raises, with the script's line", function()
    local Broken = relua.feature "Broken" {
      state = { count = 0 },
      actions = { boom = {} },
      reduce = relua.on { boom = function(s) s.count = 99; error("kaboom") end },
    }
    local store = relua.Store(Broken)
    local ok, message = pcall(store.send, store, "boom")
    expect(ok).to_be(false)
    message = tostring(message)
    expect(message).to_match("guessing_game_test.lua:%d+: kaboom")
    expect(message).to_contain("the state is unchanged")
    expect(store:state().count).to_be(0)
  end)

  it("refuses to let a view change state after its reducer returned", function()
    local leaked
    local Leaky = relua.feature "Leaky" {
      state = { count = 0 },
      actions = { keep = {}, poke = {} },
      reduce = relua.on {
        keep = function(s) leaked = s end,
        poke = function() leaked.count = 1 end,
      },
    }
    local store = relua.Store(Leaky)
    store:send("keep")
    expect(function() leaked.count = 5 end).to_error("state can only change inside a reducer")
    expect(function() store:send("poke") end).to_error("state can only change inside a reducer")
    expect(store:state().count).to_be(0)
  end)
end)

describe("stores", function()
  it("scope a store to a child: sends and state go to the child's place", function()
    local store = relua.Store(Game, { deps = { uuid = "incrementing", random = { 5, -3 } } })
    local counter = store:scope("counter")
    counter:send("increment")
    counter:send("setCount", 4)
    expect(counter:state().count).to_be(4)
    expect(counter:state("count")).to_be(4)
    expect(store:state().counter.count).to_be(4)
  end)

  it("observes a projection: called once now and once per change", function()
    local store = relua.Store(Game, { deps = { uuid = "incrementing", random = { 5, -3 } } })
    local seen = {}
    store:observe("counter.count", function(count) seen[#seen + 1] = count end)
    store:send("counter.increment")
    store:send("showResults")          -- does not change the count: not observed
    store:send("destination.dismiss")
    store:send("counter.increment")
    expect(seen).to_equal({ 0, 1, 2 })
  end)

  it("renders the top screen's view", function()
    local store = relua.Store(Game, { deps = { uuid = "incrementing", random = { 5, -3 } } })
    expect(store:view()).to_contain("Games played: 0")
    store:send("showResults")
    expect(store:view()).to_be("No results yet.")
  end)
end)
