local Node
Node = relua.feature "Node" { state = { id = 0, rows = {} }, actions = { add = "integer" },
  compose = { relua.forEach("rows", function() return Node end), relua.optional("child", function() return Node end) },
  reduce = relua.on { add = function(s, id) s.rows[#s.rows + 1] = { id = id, rows = {} } end } }
local store = relua.Store(Node)
store:send("add", 1); store:send("rows[1].add", 2); store:send("rows[1].rows[2].add", 3)
print(pcall(store.send, store, "child.add", 4))
print(pcall(relua.Store, relua.feature "Bad" { state = {}, actions = {}, compose = { relua.optional("x", function() return 5 end) } }))
print(relua.toJSON(store:state()))
