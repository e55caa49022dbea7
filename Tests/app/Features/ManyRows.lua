-- relua app's browser tests: a list of many rows, one changed by a click (the update is a patch).
local relua = require "relua"
local ui = relua.ui

local rows = {}
for i = 1, 300 do rows[i] = { id = i, name = ("Row %d"):format(i), count = 0 } end

return relua.feature "ManyRows" {
  state = { rows = relua.identified(rows) },
  actions = { bump = "integer" },
  reduce = relua.on {
    bump = function(s, id)
      for _, row in ipairs(s.rows) do if row.id == id then row.count = row.count + 1 end end
    end,
  },
  view = function(s)
    return ui.list(s.rows, function(row)
      return ui.hstack { ui.text(("%s: %d"):format(row.name, row.count)), ui.button("+1", "bump", row.id) }
    end)
  end,
}
