-- Dependencies by name: declarations, overrides of every shape, unimplemented and failing calls,
-- a subtree's dependencies, recorded-call stubs.
local relua = require "relua"
local Effect = relua.Effect
relua.dependency "weather" { live = function(city) if city == "x" then return nil, { kind = "k", message = "m" } end return { c = #city } end }
relua.dependency "config" { live = { region = "eu", greet = function(n) return "hi " .. tostring(n) end }, test = { region = "t" } }
pcall(relua.dependency, "clock")
pcall(function() relua.dependency "bad" { live = 1 } end)
pcall(function() relua.dependency "bad" { live = function() end, extra = 1 } end)
local F = relua.feature "F" {
  state = { c = 0, r = "" },
  actions = { look = "string", load = "string", got = "any", region = {} },
  dependencies = { weather = function(city) return { c = 100 + #city } end },
  reduce = relua.on {
    look = function(s, city, deps) local w, e = deps.weather(city); s.c = w and w.c or -1 end,
    load = function(_, city, deps) return Effect.run(function(send) send("got", deps.weather(city)) end) end,
    got = function(s, w) s.c = type(w) == "table" and w.c or -2 end,
    region = function(s, _, deps) s.r = deps.config.region .. deps.config.greet(1) end,
  },
}
local live = relua.Store(F)
live:send("look", "paris")
live:send("load", "x")
live:wait()
print(pcall(live.send, live, "region"))
local store = relua.TestStore(F, { deps = { config = { greet = function() return "!" end } } })
print(pcall(store.send, store, "region"))
print(pcall(relua.TestStore, F, { deps = { weather = 3 } }))
print(pcall(relua.TestStore, F, { deps = { config = { nope = 1 } } }))
print(pcall(relua.TestStore, F, { deps = { nothere = "live" } }))
print(pcall(function() return relua.deps.nothere end))
print(pcall(function() return relua.deps.config.nope end))
print(pcall(relua.swiftFeature, "None"))
local recorded = relua.recordedCalls { { "weather", "", arguments = { n = 1, "a" }, results = { n = 1, { c = 1 } } } }
print(pcall(recorded.weather, "b"))
print(pcall(F.withDependencies, F, 42))
print(pcall(F.withDependencies, 1, {}))
local G = F:withDependencies { weather = function() return { c = 7 } end }
local g = relua.Store(G)
g:send("look", "x")
print(g:state().c, pcall(relua.Store, F:withDependencies { nope = 1 }))
