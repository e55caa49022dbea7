local relua = require "relua"
local Counter = require "Features.Counter"
local store = relua.TestStore(Counter, { deps = { uuid = "incrementing", random = { 10, -5 } } })
store:send("increment", function(s) s.count = 1 end)
store:send("setCount", 10, function(s) s.count = 10 end)
store:send("playNext", function(s) s.id = relua.uuid(1); s.secret = -5; s.count = 0 end)
local ok, err = pcall(function() store:send("decrement", function(s) s.count = 5 end) end)
print(ok, err)
