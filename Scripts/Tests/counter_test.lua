local relua = require "relua"
local Counter = require "Features.Counter"

local deps = { uuid = "incrementing", random = { 10, -5 } }

test("increment and decrement move the guess", function()
  local store = relua.TestStore(Counter, { deps = deps })
  store:send("increment", function(s) s.count = 1 end)
  store:send("decrement", function(s) s.count = 0 end)
  store:send("setCount", 42, function(s) s.count = 42 end)
end)

test("playNext starts a new round with a new id and secret", function()
  local store = relua.TestStore(Counter, { deps = deps })
  expect(store:state().id).to_be(relua.uuid(0))
  store:send("setCount", 10, function(s) s.count = 10 end)
  expect(Counter.feedback(store:state())).to_be("correct")
  store:send("playNext", function(s) s.id = relua.uuid(1); s.secret = -5; s.count = 0 end)
end)

test("a wrong expectation fails with a diff", function()
  local store = relua.TestStore(Counter, { deps = deps })
  local ok, message = pcall(function() store:send("increment", function(s) s.count = 2 end) end)
  expect(ok).to_be(false)
  expect(message).to_match("A state change does not match expectation")
  expect(message).to_contain("−   count = 2")
  expect(message).to_contain("+   count = 1")
end)
