-- The to-do feature's tests; the storage is given as a stub. The example runs them itself
-- (`relua-todo --test`, through ReluaRuntime.runTests) and so does `relua test`.
local relua = require "relua"
local Todo = require "Todo"

relua.dependency "storage" {  -- as the program registers it, for `relua test` alone
  live = { load = function() return nil end, save = function() return true end },
}

local function storage(saved)
  return {
    load = function() return nil end,
    save = function(text) saved[#saved + 1] = text; return true end,
  }
end

test("adding, toggling and removing save the list each time", function()
  local saved = {}
  local store = relua.TestStore(Todo, { deps = { storage = storage(saved) } })
  store:send("add", "  milk ", function(s) s.items = { { id = 1, title = "milk", done = false } }; s.nextID = 2 end)
  store:send("toggle", 1, function(s) s.items[1].done = true end)
  store:send("clearDone", function(s) s.items = {} end)
  store:finish()
  expect(#saved).to_be(3)
  expect(saved[2]).to_contain('"done":true')
end)

test("a title of spaces is refused with a message, nothing saved", function()
  local saved = {}
  local store = relua.TestStore(Todo, { deps = { storage = storage(saved) } })
  store:send("add", "   ", function(s) s.problem = "A to-do needs a title." end)
  expect(#saved).to_be(0)
end)

test("a failed save shows why", function()
  local store = relua.TestStore(Todo, { deps = { storage = {
    load = function() return nil end,
    save = function() return nil, { kind = "io", message = "disk full" } end,
  } } })
  store:send("add", "eggs", function(s) s.items = { { id = 1, title = "eggs", done = false } }; s.nextID = 2 end)
  store:receive("saveFailed", "disk full", function(s) s.problem = "Not saved: disk full" end)
end)
