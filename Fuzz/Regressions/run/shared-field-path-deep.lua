-- A shared key's field path 300,000 fields deep crashed the host (a write walked it recursively);
-- it is refused now: state nests at most 200 tables deep.
local relua = require "relua"
local F = relua.feature "F" {
  state = { x = 0 },
  shared = { x = relua.inMemory("s"):field(("a."):rep(300000) .. "b") },
  actions = { set = {} },
  reduce = relua.on { set = function(s) s.x = 1 end },
}
local store = relua.Store(F)
store:send("set")
