-- relua app's browser tests: a list of many rows, one changed by a click (the update is a patch).
local relua = require "relua"
local ui = relua.ui

local rows = {}
for i = 1, 300 do rows[i] = { id = i, name = ("Row %d"):format(i), count = 0 } end

return relua.feature "ManyRows" {
  state = { rows = relua.identified(rows) },
  actions = { bump = "integer", remove = "integer", add = {} },
  reduce = relua.on {
    remove = function(s, id)
      for i, row in ipairs(s.rows) do if row.id == id then table.remove(s.rows, i) break end end
    end,
    add = function(s)
      table.insert(s.rows, 1, { id = 1000 + #s.rows, name = "New", count = 0 })
    end,
    bump = function(s, id)
      for _, row in ipairs(s.rows) do if row.id == id then row.count = row.count + 1 end end
    end,
  },
  view = function(s)
    return ui.vstack {
      ui.button("Add", "add"),
      ui.list(s.rows, function(row)
        return ui.hstack {
          ui.text(("%s: %d"):format(row.name, row.count)), ui.button("+1", "bump", row.id), ui.button("Remove", "remove", row.id),
        }
      end),
    }
  end,
}
