local relua = require "relua"
local Effect = relua.Effect
local Child = relua.feature "Child" { state = { n = 0 }, actions = { inc = {} }, reduce = relua.on { inc = function(s) s.n = s.n + 1 end } }
local F = relua.feature "F" {
  state = { path = {}, n = 0 },
  actions = { tick = {}, start = {}, listen = {} },
  compose = {
    relua.stack("path", { child = Child }), relua.presents("sheet", Child), relua.presents("alert", relua.alert { ok = {} }),
    relua.reduce { tick = function(s) s.n = s.n + 1 end },
    relua.onChange("n", function(s, old, new) if new > 3 then return Effect.send("tick") end end),
  },
  reduce = relua.on {
    start = function(_, _, deps) return Effect.run(function(send) for i in deps.clock.timer(0.001) do send("tick") if i > 2 then break end end end) end,
    listen = function(_, _, deps) return Effect.run(function(send) for v in deps.notifications("x") do send("tick") end end):cancellable("l") end,
  },
}
local store = relua.Store(F, { limits = { actionsPerSend = 50 } })
for _, payload in ipairs { { child = {} }, { id = -1, child = {} }, { id = 2^63, child = {} }, { nope = {} }, { child = 5 }, 7, { id = 0, child = {} }, { id = 0, child = {} } } do
  print(pcall(store.send, store, "path.push", payload))
end
print(pcall(store.send, store, "sheet.dismiss"), pcall(store.send, store, "alert.ok"), pcall(store.send, store, "sheet.inc"))
print(pcall(store.send, store, "tick"))
print(pcall(relua.onChange, {}, 1), pcall(function() return Effect.run(function(_, _, deps) return deps.clock.timer(-1) end) end))
store:send("listen")
print(store:post("x"), store:post("x", { a = 1 }), pcall(store.post, store, 42))
print(pcall(store.send, store, "start"))
