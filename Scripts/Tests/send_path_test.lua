-- The fast path of `store:send` from Lua (actions cached by their Lua string, views as light
-- userdata made per call): what it must keep doing exactly as the slow path did.
local relua = require "relua"

local Counter = relua.feature "Counter" {
  state = { count = 0, items = { 1, 2 } },
  actions = { increment = {}, setCount = "integer", keep = {} },
  reduce = relua.on {
    increment = function(s) s.count = s.count + 1 end,
    setCount = function(s, n) s.count = n end,
    keep = function(s) kept = s end,  -- luacheck: ignore (a global on purpose)
  },
}

describe("store:send from Lua", function()
  it("checks the payload on every send, also once the action name is cached", function()
    local store = relua.Store(Counter)
    store:send("setCount", 3)
    local ok, message = pcall(store.send, store, "setCount", "three")
    expect(ok).to_be(false)
    message = tostring(message)  -- errors from Swift are objects that print as their message
    expect(message).to_contain("action 'setCount' of Counter")
    expect(message).to_contain("integer")
    expect(store:state().count).to_be(3)
    store:send("setCount", 4)
    expect(store:state().count).to_be(4)
  end)

  it("rejects an action that is not a string, naming the argument", function()
    local store = relua.Store(Counter)
    local ok, message = pcall(store.send, store, 42)
    expect(ok).to_be(false)
    message = tostring(message)
    expect(message).to_contain("bad argument #2")
    expect(message).to_contain("action name expected")
  end)

  it("rejects a call on something that is not a store", function()
    local store = relua.Store(Counter)
    local ok, message = pcall(store.send, {}, "increment")
    expect(ok).to_be(false)
    message = tostring(message)
    expect(message).to_contain("Store expected")
  end)

  it("resolves the same name the same way many times, and a new name after an unknown one", function()
    local store = relua.Store(Counter)
    for _ = 1, 1000 do store:send("increment") end
    expect(store:state().count).to_be(1000)
    local ok = pcall(store.send, store, "incremnt")
    expect(ok).to_be(false)
    store:send("increment")
    expect(store:state().count).to_be(1001)
  end)

  it("gives a different view each call; the old one is stale, even in a later call", function()
    local store = relua.Store(Counter)
    store:send("keep")
    local first = kept
    store:send("keep")
    expect(rawequal(first, kept)).to_be(false)
    expect(type(first)).to_be("userdata")
    expect(tostring(first)).to_be("StateView (stale)")
    local ok, message = pcall(function() return first.count end)
    expect(ok).to_be(false)
    message = tostring(message)
    expect(message).to_contain("state can only change inside a reducer")
    kept = nil
  end)
end)
