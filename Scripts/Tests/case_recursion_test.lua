-- The recursion case study: a feature that contains itself, reached at any depth.
local relua = require "relua"
local Nested = require "Features.CaseStudies.Recursion"

local uuid = relua.uuid

test("rows are added and named at any depth", function()
  local store = relua.TestStore(Nested, { deps = { uuid = "incrementing" } })
  store:send("addRow", function(s) s.rows = { { id = uuid(0), name = "Row 1", rows = {} } } end)
  store:send(("rows[id=%q].addRow"):format(uuid(0)), function(s)
    s.rows[1].rows = { { id = uuid(1), name = "Row 1", rows = {} } }
  end)
  store:send(("rows[id=%q].rows[id=%q].setName"):format(uuid(0), uuid(1)), "Leaf", function(s)
    s.rows[1].rows[1].name = "Leaf"
  end)
  store:send(("rows[id=%q].delete"):format(uuid(0)), function(s) s.rows[1].rows = {} end)
end)

test("a row that is gone is a warning, and nothing changes", function()
  local store = relua.Store(Nested, { deps = { uuid = "incrementing" } })
  store:send(("rows[id=%q].addRow"):format(uuid(7)))
  expect(#store:warnings()).to_be(1)
  expect(store:warnings()[1]).to_contain("addRow")
  expect(#store:state().rows).to_be(0)
end)
