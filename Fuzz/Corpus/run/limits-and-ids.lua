local F = relua.feature "F" { state = { n = 0, path = {} }, actions = { again = {}, push = {}, pop = "integer" },
  compose = { relua.stack("path", { leaf = relua.feature "Leaf" { state = {}, actions = {} } }) },
  reduce = relua.on {
    again = function(s) s.n = s.n + 1 return relua.Effect.send("again") end,
    push = function(s) relua.push(s.path, { leaf = {} }) end,
  } }
local store = relua.Store(F, { limits = { actionsPerSend = 7, effectsInFlight = 3 }, deps = { stackElementID = 5 } })
print(pcall(store.send, store, "again"))
store:send("push"); store:send("push"); store:send("path.popFrom", 6); store:send("push")
print(relua.toJSON(store:state()))
print(pcall(relua.Store, F, { limits = { actionsPerSend = -1 } }))
print(pcall(relua.Store, F, { deps = { stackElementID = math.huge } }))
