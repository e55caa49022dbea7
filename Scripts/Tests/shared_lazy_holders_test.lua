-- A write to a share is copied into the other holders only when something reads them (the state
-- read from a store, a reducer looking into a child, a recording of each action's state). Every
-- way of reading must see the share's value, in live stores and test stores alike.
local relua = require "relua"
local feature, on = relua.feature, relua.on

local function rowsFeature(keyName)
  local Count = relua.inMemory(keyName)
  local Row = feature "Row" {
    state = { id = 0, count = 0, seen = -1 },
    shared = { count = Count },
    actions = { bump = {}, look = {} },
    reduce = on {
      bump = function(s) s.count = s.count + 10 end,
      look = function(s) s.seen = s.count end,
    },
  }
  local rows = {}
  for id = 1, 3 do rows[id] = { id = id, count = 0, seen = -1 } end
  local Rows = feature "Rows" {
    state = { count = 0, rows = relua.identified(rows), sum = 0, snapshot = {}, fromPairs = 0 },
    shared = { count = Count },
    actions = { bump = {}, sum = {}, snapshot = {}, pairs = {}, fail = {} },
    compose = { relua.forEach("rows", Row) },
    reduce = on {
      bump = function(s) s.count = s.count + 1 end,
      -- reads every row's copy through views: each must hold the share's value
      sum = function(s)
        local total = 0
        for _, row in ipairs(s.rows) do total = total + row.count end
        s.sum = total
      end,
      -- reads the whole state at once (copy), not through a child view
      snapshot = function(s) s.snapshot = { first = copy(s).rows[1].count } end,
      pairs = function(s)
        local total = 0
        for _, row in pairs(s.rows) do total = total + row.count end
        s.fromPairs = total
      end,
      fail = function(s) s.count = 1000; local _ = s.rows[1].count; error("no") end,
      -- a row wrote the share in this send: its parent, after it, sees the value in every row
      ["rows.bump"] = function(s)
        local total = 0
        for _, row in ipairs(s.rows) do total = total + row.count end
        s.sum = total
      end,
    },
  }
  return Rows, Count
end

describe("a live store's holders", function()
  it("are up to date when the state is read after sends that only wrote the share", function()
    local Rows = rowsFeature("lazy.read")
    local store = relua.Store(Rows)
    for _ = 1, 5 do store:send("bump") end
    expect(store:state("count")).to_be(5)
    for id = 1, 3 do expect(store:state("rows")[id].count).to_be(5) end
  end)

  it("are up to date when the next reducer looks into the rows", function()
    local Rows = rowsFeature("lazy.look")
    local store = relua.Store(Rows)
    store:send("bump")
    store:send("bump")
    store:send("sum")
    expect(store:state("sum")).to_be(6)
  end)

  it("are up to date when a reducer copies its whole state, or walks it with pairs", function()
    local Rows = rowsFeature("lazy.copy")
    local store = relua.Store(Rows)
    store:send("bump")
    store:send("snapshot")
    expect(store:state("snapshot").first).to_be(1)
    store:send("bump")
    store:send("pairs")
    expect(store:state("fromPairs")).to_be(6)
  end)

  it("are up to date in a child's own reducer", function()
    local Rows = rowsFeature("lazy.child")
    local store = relua.Store(Rows)
    store:send("bump")
    store:send("rows[id=2].look")
    expect(store:state("rows")[2].seen).to_be(1)
  end)

  it("in one send: a row's write is seen by its parent in every row", function()
    local Rows = rowsFeature("lazy.parent")
    local store = relua.Store(Rows)
    store:send("rows[id=1].bump")
    expect(store:state("sum")).to_be(30)
  end)

  it("a failed send that looked into the rows leaves the state and the share as they were", function()
    local Rows, Count = rowsFeature("lazy.fail")
    local store = relua.Store(Rows)
    store:send("bump")
    local ok = pcall(function() store:send("fail") end)
    expect(ok).to_be(false)
    expect(Count:get()).to_be(1)
    expect(store:state("count")).to_be(1)
    for id = 1, 3 do expect(store:state("rows")[id].count).to_be(1) end
  end)

  it("two stores of the same share: each sees the other's writes", function()
    local Rows = rowsFeature("lazy.two")
    local a, b = relua.Store(Rows), relua.Store(Rows)
    a:send("bump")
    b:send("bump")
    expect(a:state("rows")[3].count).to_be(2)
    expect(b:state("rows")[1].count).to_be(2)
    a:send("sum")
    expect(a:state("sum")).to_be(6)
  end)
end)

describe("a test store's holders", function()
  it("are compared after each action, up to date", function()
    local Rows = rowsFeature("lazy.test")
    local store = relua.TestStore(Rows)
    store:send("bump", function(s)
      s.count = 1
      for id = 1, 3 do s.rows[id].count = 1 end
    end)
    store:send("sum", function(s) s.sum = 3 end)
    store:send("rows[id=3].bump", function(s)
      s.count = 11
      for id = 1, 3 do s.rows[id].count = 11 end
      s.sum = 33
    end)
  end)
end)
