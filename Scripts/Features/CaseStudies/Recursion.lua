-- Case study: recursion (TCA's "Recursion" case study).
-- Shows a feature that contains itself: each row has rows of its own, as deep as the state goes.
-- `relua.forEach("rows", function() return Nested end)` refers to the feature being defined (a
-- function stands for it where a child can be absent). `addRow` adds a child row; `rows[id].…`
-- reaches a row, `rows[id].rows[id2].…` its child, and so on; `delete` removes the row's rows.
local relua = require "relua"
local ui = relua.ui
local feature, on = relua.feature, relua.on

local Nested
Nested = feature "Nested" {
  -- id: a uuid; name: the row's label; rows: its child rows, each a Nested state
  state = { id = "root", name = "Root", rows = {} },

  actions = { addRow = {}, setName = "string", delete = {} },

  compose = { relua.forEach("rows", function() return Nested end) },

  reduce = on {
    addRow = function(s, _, deps)
      s.rows[#s.rows + 1] = { id = deps.uuid(), name = "Row " .. (#s.rows + 1), rows = {} }
    end,
    setName = function(s, name) s.name = name end,
    delete = function(s) s.rows = {} end,
  },

  -- Each row with its own Add row button: a keyed list, so it sends rows[id="…"].addRow.
  view = function(s)
    return ui.vstack {
      ui.hstack { s.name .. "  ", ui.button("Add row", "addRow"), ui.button("Delete rows", "delete") },
      ui.list(s.rows, function(row)
        return ui.hstack {
          ("  %s (%d rows)  "):format(row.name, #row.rows),
          ui.button("Add row", "addRow"),
        }
      end, "rows"),
    }
  end,
}

return Nested
