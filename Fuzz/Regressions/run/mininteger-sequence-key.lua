-- math.mininteger as a state sequence's key overflowed the view's index less one (a Swift trap,
-- the host gone); found by the property driver. It reads nil now, and a write is an error.
local relua = require "relua"
local F = relua.feature "F" {
  state = { list = { 1, 2 } },
  actions = { read = {}, write = {} },
  reduce = relua.on {
    read = function(s) local _ = s.list[math.mininteger] end,
    write = function(s) s.list[math.mininteger] = 1 end,
  },
}
local store = relua.Store(F)
store:send("read")
pcall(function() store:send("write") end)
