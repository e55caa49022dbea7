local relua = require "relua"
local Row = relua.feature "Row" { state = { id = 0, on = false }, actions = { toggle = {} }, reduce = relua.on { toggle = function(s) s.on = not s.on end } }
local List = relua.feature "List" { state = { rows = {} }, compose = { relua.forEach("rows", Row) } }
for _, n in ipairs({ 100, 1000, 10000 }) do
  local rows = {}
  for id = 1, n do rows[id] = { id = id, on = false } end
  local store = relua.Store(List, { state = { rows = rows } })
  local t = os.clock()
  for _ = 1, 2000 do store:send("rows[50].toggle") end
  print(n, (os.clock() - t) / 2000 * 1e9, "ns")
end
