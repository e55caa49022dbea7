-- The guessing game (FEATURES §1): a Counter round, the results of the rounds played, and the
-- results list presented as a destination. Play it: Scripts/relua repl Scripts/Features/GuessingGame.lua
local relua = require "relua"
local Counter = require "Features.Counter"
local ResultList = require "Features.ResultList"
local feature, on, ui = relua.feature, relua.on, relua.ui

-- A finished round: a snapshot of its counter. Its id is the round's id, so each Next adds exactly
-- one result (a round that kept its id would overwrite the previous result: "games played stays 1").
local function GameResult(counter)
  return { id = counter.id, secret = counter.secret, count = counter.count, correct = counter.secret == counter.count }
end

local Game = feature "Game" {
  state = function(deps)
    return { counter = Counter:initial(deps), results = relua.identified {}, destination = nil }
  end,

  actions = { showResults = {} },

  compose = {
    relua.own,  -- the Game records the round before the Counter starts the next one
    relua.scope("counter", Counter),
    relua.presents("destination", { results = ResultList }),
  },

  reduce = on {
    ["counter.playNext"] = function(s)
      table.insert(s.results, GameResult(s.counter))
    end,
    showResults = function(s)
      s.destination = { results = { results = copy(s.results) } }
    end,
    -- The parent still sees the list while it is dismissed: write the edited results back.
    ["destination.dismiss"] = function(s)
      s.results = copy(s.destination.results.results)
    end,
  },

  -- The Counter's view inside the Game's: its buttons send counter.increment, … (relua.ui.scope).
  view = function(s)
    return ui.vstack {
      ui.text(("Games played: %d"):format(#s.results)),
      ui.scope("counter", Counter.view(s.counter)),
      ui.button("Results", "showResults"),
    }
  end,
}

return Game
