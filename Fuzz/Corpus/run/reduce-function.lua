local relua = require "relua"
local F = relua.feature "F" {
  state = function(deps) return { log = "", id = deps.uuid() } end,
  actions = { a = "any", b = "{integer}", c = "string?" },
  reduce = function(state, action, deps)
    state.log = state.log .. action.name .. ":" .. tostring(action.payload) .. ";"
  end,
}
local store = relua.Store(F, { deps = { uuid = "incrementing" } })
store:send("a", { x = 1 })
store:send("b", { 1, 2 })
store:send("c")
print(pcall(store.send, store, "b", { "x" }))
print(#store:state().log)
