local relua = require "relua"
local Counter = relua.feature "Counter" {
  state = { count = 0 },
  actions = { increment = {}, setCount = "integer" },
  reduce = relua.on {
    increment = function(s) s.count = s.count + 1 end,
    setCount = function(s, n) s.count = n end,
  },
}
local store = relua.Store(Counter)
store:send("increment")
store:send("setCount", 5)
assert(store:state().count == 5)
print(store:json())
