-- Element paths from Lua: [id=X] by id, [n] by position, in actions and state paths, at their edges.
local relua = require "relua"
local Row = relua.feature "Row" { state = { id = 0, on = false }, actions = { toggle = {} },
  reduce = relua.on { toggle = function(s) s.on = not s.on end } }
local List = relua.feature "List" {
  state = { rows = { { id = 1, on = false }, { id = "x", on = false } } },
  actions = {}, compose = { relua.forEach("rows", Row) },
}
local store = relua.Store(List)
store:send("rows[id=1].toggle")
store:send('rows[ id = "x" ].toggle')
for _, action in ipairs { "rows[1].toggle", "rows[id=].toggle", "rows[id==1].toggle", "rows[id=9].toggle",
  "rows[id=math.mininteger].toggle", "rows[id=1][id=1].toggle", "rows[id=true].toggle", "rows[id=1" } do
  pcall(store.send, store, action)
end
for _, path in ipairs { "rows[1].on", "rows[2]", "rows[0]", "rows[-9223372036854775808]", "rows[9223372036854775807]",
  "rows[id=1].on", 'rows[id="x"].on', 'rows["odd key"]', "rows[true]", "rows[1.5]", "rows[id=]", "rows[" } do
  pcall(store.state, store, path)
end
local scoped = store:scope("rows[id=1]")
scoped:send("toggle")
print(store:state("rows[1].on"), store:state("rows[id=1].on"), scoped:state("on"))
