local relua = require "relua"
local Effect = relua.Effect
local F = relua.feature "F" {
  state = { n = 0, q = "" },
  actions = { go = "string", done = "string" },
  bindable = { "q" },
  reduce = relua.on {
    go = function(s, q) return Effect.send("done", q):debounce("d", 0.01) end,
    done = function(s, q) s.q = q; s.n = s.n + 1 end,
    ["binding.q"] = function(s) return Effect.run(function(send) error("boom") end):catch(function(m, send) send("done", m) end) end,
  },
}
local store = relua.Store(F, { deps = { clock = "live" } })
store:send("go", "a")
store:send("go", "b")
store:send("binding.q", "x")
store:wait()
print(relua.toJSON(store:state(), true))
