-- ResultList: the rounds played so far, one row per result (FEATURES §1).
-- Rows are removed by their 1-based positions, as a swipe-to-delete sends an index set.
local relua = require "relua"
local feature, on, ui = relua.feature, relua.on, relua.ui

local ResultList = feature "ResultList" {
  -- results: GameResult records { id, secret, count, correct }, unique by id.
  state = { results = relua.identified {} },

  actions = { remove = "{integer}" },

  reduce = on {
    remove = function(s, offsets)
      table.sort(offsets, function(a, b) return a > b end)  -- from the end, so positions stay valid
      for _, position in ipairs(offsets) do
        if position >= 1 and position <= #s.results then table.remove(s.results, position) end
      end
    end,
  },

  -- One row per result, each with a button that deletes it (its position, as a swipe sends).
  view = function(s)
    if #s.results == 0 then return ui.text "No results yet." end
    return ui.list(s.results, function(result, position)
      return ui.hstack {
        ui.text(("%d. %s  Secret: %d  Answer: %d"):format(
          position, result.correct and "✓" or "✗", result.secret, result.count)),
        ui.button("Delete", "remove", { position }),
      }
    end)
  end,
}

return ResultList
