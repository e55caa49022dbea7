local relua = require "relua"
local Items = relua.inMemory("items")
local Row = relua.feature "Row" {
  state = { id = 0, title = "" },
  shared = { title = Items:field("title") },
}
local F = relua.feature "F" {
  state = { items = { title = "a" }, rows = {}, count = 0 },
  shared = { items = Items, count = relua.inMemory("count"):readOnly() },
  actions = { add = "string", bump = {} },
  compose = { relua.forEach("rows", Row) },
  reduce = relua.on {
    add = function(s, t) s.rows[#s.rows + 1] = { id = #s.rows + 1, title = t }; s.items.title = t end,
    bump = function(s) s.count = s.count + 1 end,
  },
}
local store = relua.Store(F)
store:send("add", "x")
pcall(store.send, store, "bump")
return relua.inMemory("items"):get()
