-- A seed for the views reader: trees relua.ui builds, hand-made tables, a deep one (issue #35).
local relua = require "relua"
local ui = relua.ui
local function viewing(view)
  local state = { title = "t", rows = relua.identified { { id = 1 } } }
  local actions = { x = "{integer}", y = {} }
  return relua.Store(relua.feature "V" { state = state, actions = actions, bindable = { "title" }, view = view })
end
print(viewing(function(s)
  return ui.vstack {
    "a",
    ui.hstack { ui.button("b", "x", { 1 }), ui.link("c", "y") },
    ui.textField("T", ui.binding.title),
    ui.list(s.rows, function(r) return ui.text(tostring(r.id)) end, "rows"),
    ui.section("s", { ui.image("u", "i") }),
  }
end):view())
print(pcall(function()
  return viewing(function() return { kind = "list", rows = { { id = {}, content = 1 } } } end):view()
end))
print(pcall(function()
  return viewing(function() local t = {}; t.kind = "vstack"; t.children = { t }; return t end):view()
end))
print(viewing(function() return ui.text "x" end):viewJSON())
