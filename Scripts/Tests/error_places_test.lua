-- Bad input raised by relua's own functions (Swift and the DSL's Lua) names the script line that
-- passed it, as Lua's own errors do: `file:line: message`. Each check writes the bad call and a
-- call of Lua's `error` on one line, so both must name the same place.
local relua = require "relua"
local Effect = relua.Effect
local Counter = require "Features.Counter"

local places = require "Tests.Support.ErrorPlaces"
local raisesHere = places.raisesHere

describe("error places", function()
  local store = relua.Store(Counter, { deps = { uuid = "incrementing", random = { seed = 1 } } })

  it("an undeclared action names the line of the send", function()
    raisesHere(function() store:send("nope") end, function() error("") end,
      "Counter has no action 'nope' (in 'nope'); it accepts: decrement, increment, playNext, setCount(integer)")
  end)

  it("a payload of the wrong type names the line of the send", function()
    raisesHere(function() store:send("setCount", "ten") end, function() error("") end,
      [[action 'setCount' of Counter: expected integer, got string "ten"]])
  end)

  it("bad JSON, bad options and bad state paths name the calling line", function()
    raisesHere(function() relua.fromJSON("{bad") end, function() error("") end, "JSON: expected a key at byte 1")
    raisesHere(function() relua.Store(Counter, { deps = { uuid = "weird" } }) end, function() error("") end,
      [[deps.uuid: 'weird' is not "incrementing", "live" or a UUID]])
    raisesHere(function() store:state("count[") end, function() error("") end,
      "cannot read the state path 'count[': an id is missing")
  end)

  it("bad effects name the line that combines them", function()
    raisesHere(function() Effect.merge(5) end, function() error("") end,
      "Effect.merge (argument 1): expected an Effect, got number")
    raisesHere(function() Effect.none:merge(5) end, function() error("") end,
      "Effect.merge (argument 2): expected an Effect, got number")
  end)

  it("a bad argument to an awaited method names the method and counts as Lua does", function()
    local ts = relua.TestStore(Counter, { deps = { uuid = "incrementing", random = { seed = 1 }, clock = "test" } })
    raisesHere(function() ts:advance("soon") end, function() error("") end,
      "bad argument #1 to 'store:advance' (expected seconds: a finite number from 0 to 9e9)")
  end)

  it("a dismiss from an effect of a root feature is its store's warning, naming the script line", function()
    local dismissLine
    local Root = relua.feature "DismissingRoot" {
      state = {}, actions = { close = {} },
      reduce = relua.on {
        close = function(_, _, deps)
          return Effect.run(function()
            -- (error at level 3, past pcall, is placed at this line: the place the warning must name)
            deps.dismiss(); dismissLine = select(2, pcall(function() error("", 3) end))
          end)
        end,
      },
    }
    local root = relua.Store(Root)
    root:send("close")
    root:wait()
    local warnings = root:warnings()
    expect(#warnings).to_be(1)
    expect(warnings[1]).to_match('^A "dismiss" was called from an effect of a feature that is not presented %(')
    expect(dismissLine).to_match("error_places_test%.lua:%d+: $")
    expect(warnings[1]).to_match("%(" .. dismissLine:sub(1, -3):gsub("%p", "%%%0") .. "%); nothing was dismissed%.$")
  end)

  it("leaves the store as it was", function()
    expect(store:state("count")).to_be(0)
    store:send("increment")
    expect(store:state("count")).to_be(1)
  end)
end)
