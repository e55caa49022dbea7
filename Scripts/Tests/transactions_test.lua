-- A send is a transaction: when a reducer raises, every write of that send is undone, including
-- the writes of reducers that ran before it (a parent before its child, a row in a forEach, a
-- binding), and the state is exactly what it was.
local relua = require "relua"
local on = relua.on

local Child = relua.feature "Child" {
  state = { n = 0 },
  actions = { explode = {} },
  reduce = on { explode = function(s) s.n = 99; error("child exploded") end },
}

local Row = relua.feature "Row" {
  state = { id = 0, on = false },
  actions = { toggle = {}, toggleThenFail = {} },
  reduce = on {
    toggle = function(s) s.on = not s.on end,
    toggleThenFail = function(s) s.on = not s.on end,
  },
}

local Parent = relua.feature "Parent" {
  state = { log = {}, child = { n = 0 }, rows = { { id = 1, on = false }, { id = 2, on = false } }, query = "" },
  actions = {},
  bindable = { "query" },
  compose = {
    relua.own,  -- the parent writes first, then the child raises
    relua.scope("child", Child),
    relua.forEach("rows", Row),
  },
  reduce = on {
    ["child.explode"] = function(s) table.insert(s.log, "parent saw explode") end,
    ["rows.toggleThenFail"] = function(s, _, _, id)
      s.log[#s.log + 1] = "row " .. id .. " toggled"
      error("parent failed after the row changed")
    end,
    ["binding.query"] = function(s) if s.query == "boom" then error("bad query") end end,
  },
}

local function expectUnchanged(store, send)
  local before = store:state()
  local ok, message = pcall(send)
  expect(ok).to_be(false)
  expect(tostring(message)).to_contain("the state is unchanged")
  expect(store:state()).to_equal(before)
end

test("a child raising undoes the parent's earlier writes", function()
  local store = relua.Store(Parent)
  expectUnchanged(store, function() store:send("child.explode") end)
end)

test("a parent raising undoes the row its forEach child changed", function()
  local store = relua.Store(Parent)
  store:send("rows[id=2].toggle")
  expect(store:state("rows[2].on")).to_be(true)
  expectUnchanged(store, function() store:send("rows[id=1].toggleThenFail") end)
end)

test("a raising reducer undoes the binding that preceded it", function()
  local store = relua.Store(Parent)
  store:send("binding.query", "tca")
  expectUnchanged(store, function() store:send("binding.query", "boom") end)
  expect(store:state().query).to_be("tca")
end)

test("the store keeps working after a failed send", function()
  local store = relua.Store(Parent)
  pcall(store.send, store, "child.explode")
  store:send("rows[id=1].toggle")
  expect(store:state("rows[1].on")).to_be(true)
  expect(store:state().log).to_equal({})
end)

-- A derived child writes through its lens's `set`, on the parent's state: those writes are part
-- of the send too.
local Tally = relua.feature "Tally" {
  state = { count = 0 },
  actions = { bump = {} },
  reduce = on { bump = function(s) s.count = s.count + 1 end },
}

local Owner = relua.feature "Owner" {
  state = { total = 0, limit = 1 },
  actions = {},
  compose = {
    relua.scope("tally", Tally, {
      get = function(s) return { count = s.total } end,
      set = function(s, tally) s.total = tally.count end,
    }),
  },
  reduce = on {
    ["tally.bump"] = function(s) if s.total > s.limit then error("over the limit") end end,
  },
}

test("a raising parent undoes what its derived child wrote through the lens", function()
  local store = relua.Store(Owner)
  store:send("tally.bump")
  expect(store:state().total).to_be(1)
  expectUnchanged(store, function() store:send("tally.bump") end)
  expect(store:state().total).to_be(1)
end)
