-- The bug classes fixed in b6c5695, each in a pcall: none may crash or hang the host.
local relua = require "relua"
local Effect = relua.Effect
local F = relua.feature "F" {
  state = { n = 0 },
  actions = { huge = {}, nan = {}, self = {}, edited = {}, deep = {} },
  reduce = relua.on {
    huge = function(s, _, deps) return Effect.run(function() deps.clock.sleep(math.huge) end) end,
    nan = function() return Effect.send("self"):debounce("d", 0/0) end,
    self = function() return Effect.send("self") end,
    edited = function() local e = Effect.run(function() end); e.fn = nil; return e end,
    deep = function(s) local t = {} for _ = 1, 10000 do t = { t } end s.t = t end,
  },
}
local store = relua.Store(F, { deps = { clock = "immediate" } })
for _, action in ipairs { "huge", "nan", "self", "edited", "deep" } do print(pcall(store.send, store, action)) end
print(pcall(relua.uuid, -1), pcall(relua.uuid, 2^62), pcall(relua.uuid, math.huge))
print(pcall(relua.Store, F, { json = "[1, 2]" }))
local deep = string.rep("[", 20000) .. string.rep("]", 20000)
print(pcall(relua.fromJSON, deep))
local t = {} for _ = 1, 10000 do t = { t } end
print(pcall(relua.toJSON, t))
store:wait()
