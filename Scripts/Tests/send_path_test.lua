-- The fast path of `store:send` from Lua (actions cached by their Lua string, views as light
-- userdata made per call): what it must keep doing exactly as the slow path did.
local relua = require "relua"

-- Reducers here hand what they saw to the test through globals, on purpose.
-- luacheck: globals kept seen relayStore calls

local Counter = relua.feature "Counter" {
  state = { count = 0, items = { 1, 2 } },
  actions = { increment = {}, setCount = "integer", keep = {} },
  reduce = relua.on {
    increment = function(s) s.count = s.count + 1 end,
    setCount = function(s, n) s.count = n end,
    keep = function(s) kept = s end,
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

  -- A resend of the last name without a payload is recognised by its Lua string alone (no type
  -- check, no lookup): everything else must still take the checked path.
  it("checks a payload sent with the last name, also when the name takes none", function()
    local store = relua.Store(Counter)
    for _ = 1, 3 do store:send("increment") end
    local ok, message = pcall(store.send, store, "increment", 5)
    expect(ok).to_be(false)
    expect(tostring(message)).to_contain("action 'increment' of Counter")
    expect(store:state().count).to_be(3)
    store:send("increment", nil)  -- an explicit nil is no payload
    store:send("increment")
    expect(store:state().count).to_be(5)
  end)

  it("checks the payload of the last name after a right one, again and again", function()
    local store = relua.Store(Counter)
    store:send("setCount", 1)
    store:send("setCount", 2)
    for _ = 1, 3 do
      local ok, message = pcall(store.send, store, "setCount", "two")
      expect(ok).to_be(false)
      expect(tostring(message)).to_contain("action 'setCount' of Counter")
    end
    local ok, message = pcall(store.send, store, "setCount")  -- the payload is missing
    expect(ok).to_be(false)
    expect(tostring(message)).to_contain("action 'setCount' of Counter")
    expect(store:state().count).to_be(2)
  end)

  it("alternates names, each resolved as itself", function()
    local store = relua.Store(Counter)
    for i = 1, 5 do
      store:send("increment")
      store:send("increment")
      store:send("setCount", i * 10)
      store:send("keep")
    end
    expect(store:state().count).to_be(50)
    store:send("increment")
    expect(store:state().count).to_be(51)
    kept = nil
  end)

  -- The receiver check reads the raw length first (24, a Swift object's box, for a userdata of
  -- this shim): a string or a table of that length, a view (light userdata) or another Swift
  -- object must still be refused.
  it("rejects receivers of a Swift object's length and other Swift objects", function()
    local store = relua.Store(Counter)
    store:send("keep")
    local table24 = {}
    for i = 1, 24 do table24[i] = i end
    local receivers = { string.rep("x", 24), table24, kept, relua.TestStore(Counter), coroutine.create(print) }
    -- a foreign full userdata (io: only in a trusted state)
    if io and io.stdout then receivers[#receivers + 1] = io.stdout end  -- luacheck: ignore 113/io
    for _, receiver in ipairs(receivers) do
      local ok, message = pcall(store.send, receiver, "increment")
      expect(ok).to_be(false)
      expect(tostring(message)).to_contain("Store expected")
    end
    local ok, message = pcall(store.send, nil, "increment")
    expect(ok).to_be(false)
    expect(tostring(message)).to_contain("Store expected")
    expect(store:state().count).to_be(0)
    store:send("increment")
    expect(store:state().count).to_be(1)
  end)

  -- The last store accepted as a receiver is remembered until it is collected (see the Lua
  -- layer's tests); other objects are checked as before.
  it("rejects other Swift objects after stores were accepted and collected", function()
    local send = relua.Store(Counter).send
    for _ = 1, 5 do
      local store = relua.Store(Counter)
      store:send("increment")
      store = nil  -- luacheck: ignore 311 (dropped on purpose)
      collectgarbage()
      collectgarbage()
      local ok, message = pcall(send, relua.TestStore(Counter), "increment")
      expect(ok).to_be(false)
      expect(tostring(message)).to_contain("Store expected")
      local fresh = relua.Store(Counter)
      send(fresh, "increment")
      expect(fresh:state().count).to_be(1)
    end
  end)

  it("still rejects a non-store receiver and a non-string action once a name is cached", function()
    local store = relua.Store(Counter)
    store:send("increment")
    store:send("increment")
    local ok, message = pcall(store.send, {}, "increment")
    expect(ok).to_be(false)
    expect(tostring(message)).to_contain("Store expected")
    ok, message = pcall(store.send, store, 42)
    expect(ok).to_be(false)
    expect(tostring(message)).to_contain("action name expected")
    ok = pcall(store.send, store)
    expect(ok).to_be(false)
    expect(store:state().count).to_be(2)
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

-- Reads and writes of the fields of a reducer's own state take a shorter path (no view path, an
-- undo entry without references): the kinds and the rollback must be exactly those of the others.
local Fields = relua.feature "Fields" {
  state = { n = 1, x = 1.5, flag = true, name = "a", list = { 1 } },
  actions = { write = {}, writeThenRaise = {}, read = {}, clear = {} },
  reduce = relua.on {
    write = function(s)
      s.n = s.n + 1
      s.x = 2          -- an integer into a float field stays an integer, as in Lua
      s.flag = not s.flag
      s.name = 7       -- a field may change kind
      s.extra = 0.5    -- a new field
    end,
    writeThenRaise = function(s)
      s.n = 100
      s.x = 0.25
      s.flag = false
      s.n = 101
      error("boom")
    end,
    read = function(s)
      seen = { math.type(s.n), math.type(s.x), s.flag, s.name, s.missing, type(s.list) }
    end,
    clear = function(s) s.n = nil end,
  },
}

-- A resend of the last name is sent with the resolver's own action, lent for the send: a send
-- from inside it (queued after it, with a warning) resolving other names must not replace that
-- action under it, nor break the names' resolution afterwards.
local Relay = relua.feature "Relay" {
  state = { count = 0, other = 0 },
  actions = { bump = {}, other = {}, setOther = "integer" },
  reduce = relua.on {
    bump = function(s)
      s.count = s.count + 1
      if relayStore then
        relayStore:send("other")
        relayStore:send("setOther", s.count * 10)
      end
    end,
    other = function(s) s.other = s.other + 1 end,
    setOther = function(s, n) s.other = n end,
  },
}

describe("a resent action lent for the send", function()
  it("stays itself while its handler sends other names", function()
    local store = relua.Store(Relay)
    store:send("bump")  -- now the last name: the next sends of it are lent the action
    relayStore = store
    for i = 2, 6 do
      store:send("bump")
      expect(store:state().count).to_be(i)
      expect(store:state().other).to_be(i * 10)
    end
    relayStore = nil
    for _ = 1, 3 do store:send("other") end
    store:send("bump")
    store:send("bump")
    expect(store:state().other).to_be(63)
    expect(store:state().count).to_be(8)
  end)
end)

describe("fields of a reducer's own state", function()
  it("read with their exact kinds", function()
    local store = relua.Store(Fields)
    store:send("read")
    expect(seen[1]).to_be("integer")
    expect(seen[2]).to_be("float")
    expect(seen[3]).to_be(true)
    expect(seen[4]).to_be("a")
    expect(seen[5]).to_be_nil()
    expect(seen[6]).to_be("userdata")
    seen = nil
  end)

  it("write numbers and booleans exactly, over any scalar, and add new fields", function()
    local store = relua.Store(Fields)
    store:send("write")
    local state = store:state()
    expect(state.n).to_be(2)
    expect(math.type(state.x)).to_be("integer")
    expect(state.x).to_be(2)
    expect(state.flag).to_be(false)
    expect(state.name).to_be(7)
    expect(state.extra).to_be(0.5)
    store:send("clear")
    expect(store:state().n).to_be_nil()
  end)

  it("are restored exactly when the reducer raises after writing them", function()
    local store = relua.Store(Fields)
    local ok, message = pcall(store.send, store, "writeThenRaise")
    expect(ok).to_be(false)
    expect(tostring(message)).to_contain("boom")
    local state = store:state()
    expect(state.n).to_be(1)
    expect(math.type(state.x)).to_be("float")
    expect(state.x).to_be(1.5)
    expect(state.flag).to_be(true)
    store:send("write")
    expect(store:state().n).to_be(2)
  end)
end)

-- Sends from Lua remember the last action name by its Lua string (short strings are interned):
-- a different name, a long name, and names sent after the resolver's cache was replaced (it holds
-- 10,000 names) must still resolve to exactly their own action.
local Row = relua.feature "Row" {
  state = { id = 0, on = false },
  actions = { toggle = {}, aVeryLongActionNameThatLuaDoesNotInternAtAllEver = {} },
  reduce = relua.on {
    toggle = function(s) s.on = not s.on end,
    aVeryLongActionNameThatLuaDoesNotInternAtAllEver = function(s) s.on = true end,
  },
}

local List = relua.feature "List" {
  state = { rows = { { id = 1, on = false }, { id = 2, on = false } } },
  actions = {},
  compose = { relua.forEach("rows", Row) },
}

describe("action names sent from Lua", function()
  it("resolve to their own action when names alternate, are long, or outlive the cache", function()
    local store = relua.Store(List)
    store:send("rows[id=1].toggle")
    store:send("rows[id=2].toggle")
    store:send("rows[id=1].toggle")
    expect(store:state("rows[1].on")).to_be(false)
    expect(store:state("rows[2].on")).to_be(true)
    local long = "rows[id=1]." .. "aVeryLongActionNameThatLuaDoesNotInternAtAllEver"
    store:send(long)
    store:send(long)
    expect(store:state("rows[1].on")).to_be(true)
    -- 10,001 other names (rows that do not exist: a warning each, no change) replace the cache.
    for id = 3, 10003 do store:send("rows[id=" .. id .. "].toggle") end
    store:send("rows[id=2].toggle")
    store:send("rows[id=2].toggle")
    store:send("rows[id=1].toggle")
    expect(store:state("rows[1].on")).to_be(false)
    expect(store:state("rows[2].on")).to_be(true)
  end)
end)

-- The undo log of a send: many writes (its storage grows), own scalar fields (forgotten without
-- destroying) mixed with writes that hold references, and sessions of a child and of the root in
-- one send, undone together when a later action of the same send raises.
local Effect = relua.Effect

local Leaf = relua.feature "Leaf" {
  state = { n = 0 },
  actions = { bump = {} },
  reduce = relua.on { bump = function(s) s.n = s.n + 1 end },
}

local Tree = relua.feature "Tree" {
  state = { a = 0, b = 0, name = "x", list = { 1 }, leaf = { n = 0 }, log = { "start" } },
  actions = { many = {}, manyThenRaise = {}, raise = {}, first = {}, second = {}, twoFollowUps = {} },
  compose = { relua.scope("leaf", Leaf) },
  reduce = relua.on {
    many = function(s)
      for i = 1, 40 do s.a = s.a + 1; s.b = i end
      s.name = s.name .. "y"
      s.list[#s.list + 1] = s.a
    end,
    manyThenRaise = function(s)
      for i = 1, 40 do s.a = s.a + 1; s.b = -i end
      s.name = "changed"; s.list = { 9 }
      error("raised after many writes")
    end,
    raise = function(s) s.a = -1; error("raised in a follow-up action") end,
    -- The child wrote (its own session), then the root writes, then a follow-up raises.
    ["leaf.bump"] = function(s) s.a = s.a + 100; table.insert(s.log, "bump"); return Effect.send("raise") end,
    first = function(s) table.insert(s.log, "first") end,
    second = function(s) table.insert(s.log, "second") end,
    twoFollowUps = function(s)
      table.insert(s.log, "twoFollowUps")
      return Effect.merge(Effect.send("first"), Effect.send("second"))
    end,
  },
}

describe("a send's undo log", function()
  it("keeps many writes of a successful send and undoes all of a raising one", function()
    local store = relua.Store(Tree)
    store:send("many")
    local after = store:state()
    expect(after.a).to_be(40)
    expect(after.b).to_be(40)
    expect(after.name).to_be("xy")
    expect(after.list).to_equal({ 1, 40 })
    for _ = 1, 3 do
      local ok = pcall(store.send, store, "manyThenRaise")
      expect(ok).to_be(false)
      expect(store:state()).to_equal(after)
    end
    store:send("many")
    expect(store:state().a).to_be(80)
    expect(store:state().list).to_equal({ 1, 40, 80 })
  end)

  it("undoes the child's and the root's writes when a follow-up action of the send raises", function()
    local store = relua.Store(Tree)
    store:send("many")
    local before = store:state()
    local ok, message = pcall(store.send, store, "leaf.bump")
    expect(ok).to_be(false)
    expect(tostring(message)).to_contain("raised in a follow-up action")
    expect(store:state()).to_equal(before)
    expect(store:state("leaf.n")).to_be(0)
  end)

  it("runs follow-up actions first-in first-out and tells observers once per send", function()
    local store = relua.Store(Tree)
    local calls = 0
    store:observe(function(s) return #s.log end, function() calls = calls + 1 end)
    expect(calls).to_be(1)  -- observing calls it once with the current value
    store:send("twoFollowUps")
    expect(store:state().log).to_equal({ "start", "twoFollowUps", "first", "second" })
    expect(calls).to_be(2)
    store:send("first")
    expect(calls).to_be(3)
    pcall(store.send, store, "manyThenRaise")  -- rolled back: no change to observe
    expect(calls).to_be(3)
    store:send("twoFollowUps")  -- twice in a row: the second is the resend of the last name
    store:send("twoFollowUps")
    expect(store:state().log).to_equal({
      "start", "twoFollowUps", "first", "second", "first",
      "twoFollowUps", "first", "second", "twoFollowUps", "first", "second",
    })
    expect(calls).to_be(5)
  end)
end)

-- A handler called on its own state's view with no payload and no id is called in one C call; one
-- with a payload, an id or a scalar state pushes its arguments from Swift. Both must give the same
-- results, errors and rollbacks.
local Calls = relua.feature "Calls" {
  state = { n = 0 },
  actions = { bump = {}, bumpBy = "integer", twice = {}, nothing = {}, done = {}, raise = {} },
  reduce = relua.on {
    bump = function(s) s.n = s.n + 1 end,
    bumpBy = function(s, k) s.n = s.n + k end,
    twice = function(s) s.n = s.n + 1; return relua.Effect.send("done"), "ignored" end,
    nothing = function(s) s.n = s.n + 1; return nil, relua.Effect.send("done") end,
    done = function(s) s.done = true end,
    raise = function(s)
      s.n = -1
      s.tag = "raised"
      error("refused")
    end,
  },
}

describe("the handler call", function()
  it("returns the first result as the effect, and nothing for a first nil", function()
    local store = relua.TestStore(Calls)
    store:send("twice", function(s) s.n = 1 end)
    store:receive("done", function(s) s.done = true end)
    store:send("nothing", function(s) s.n = 2 end)
    store:send("bumpBy", 3, function(s) s.n = 5 end)
    store:finish()
  end)

  it("raises with the handler's position and leaves the state as it was", function()
    local store = relua.Store(Calls)
    store:send("bump")
    local ok, message = pcall(store.send, store, "raise")
    expect(ok).to_be(false)
    message = tostring(message)
    expect(message).to_contain("send_path_test.lua:")
    expect(message).to_contain("refused")
    expect(store:state().n).to_be(1)
    expect(store:state().tag).to_be_nil()
    store:send("bump")
    expect(store:state().n).to_be(2)
  end)

  -- A handler is passed only the arguments it declares; whatever it declares, it gets them all.
  it("passes every argument a handler declares, and all four to one taking `...`", function()
    local Arities = relua.feature "Arities" {
      state = { n = 0 },
      actions = { none = {}, state = {}, deps = {}, all = {}, rest = {} },
      reduce = relua.on {
        none = function() calls = (calls or 0) + 1 end,
        state = function(s) s.n = s.n + 1 end,
        deps = function(s, _, deps) s.uuid = deps.uuid() end,
        all = function(s, payload, deps, id) s.all = payload == nil and type(deps.uuid) == "function" and id == nil end,
        rest = function(...)
          local s, _, deps = ...
          s.count, s.restDeps = select("#", ...), type(deps.uuid) == "function"
        end,
      },
    }
    local store = relua.Store(Arities, { deps = { uuid = "incrementing" } })
    for _, name in ipairs { "none", "state", "deps", "all", "rest", "state", "deps" } do store:send(name) end
    local state = store:state()
    expect(calls).to_be(1)
    expect(state.n).to_be(2)
    expect(state.uuid).to_be("00000000-0000-0000-0000-000000000001")
    expect(state.all).to_be(true)
    expect(state.count).to_be(4)
    expect(state.restDeps).to_be(true)
  end)

  it("alternates the two shapes over two stores", function()
    local outer = relua.Store(Calls)
    local inner = relua.Store(Calls)
    for _ = 1, 100 do
      outer:send("bump")
      inner:send("bumpBy", 2)
    end
    expect(outer:state().n).to_be(100)
    expect(inner:state().n).to_be(200)
  end)
end)
