-- A send's journal of shares (#33's speed work keeps the first share it changes inline and the
-- others after it, unretained): every share a send changed is given back when it fails, and a
-- send that ends keeps them all.
local relua = require "relua"
local feature, on = relua.feature, relua.on

local A = relua.inMemory("journal.a")
local B = relua.inMemory("journal.b")
local C = relua.inMemory("journal.c")

local Three = feature "JournalThree" {
  state = { a = 0, b = 0 },
  shared = { a = A, b = B },
  actions = { bump = {}, bumpAndFail = {} },
  reduce = on {
    bump = function(s)
      s.a = s.a + 1
      s.b = s.b + 10
      C:withLock(function(n) return n + 100 end)
    end,
    bumpAndFail = function(s)
      s.a = s.a + 1
      s.b = s.b + 10
      C:withLock(function(n) return n + 100 end)
      error("no")
    end,
  },
}

test("a failed send gives back every share it changed, the first and the others", function()
  local store = relua.TestStore(Three)
  store:setShared(C, 0)
  store:send("bump", function(s) s.a = 1; s.b = 10 end)
  expect(store:shared(C)).to_be(100)
  local ok, message = pcall(function() store:send("bumpAndFail") end)
  expect(ok).to_be(false)
  expect(message).to_contain("no")
  expect(store:shared(A)).to_be(1)
  expect(store:shared(B)).to_be(10)
  expect(store:shared(C)).to_be(100)
  expect(store:state("a")).to_be(1)
  expect(store:state("b")).to_be(10)
  -- The journal is empty again: the next send's changes are its own.
  store:send("bump", function(s) s.a = 2; s.b = 20 end)
  expect(store:shared(A)).to_be(2)
  expect(store:shared(B)).to_be(20)
  expect(store:shared(C)).to_be(200)
end)

local Sole = feature "JournalSole" {
  state = { a = 0 },
  shared = { a = A },
  actions = { bump = {}, bumpAndFail = {} },
  reduce = on {
    bump = function(s) s.a = s.a + 1 end,
    bumpAndFail = function(s) s.a = s.a + 1; error("no") end,
  },
}

test("a feature holding one share (the short path) gives it back when its send fails", function()
  local store = relua.TestStore(Sole)
  store:send("bump", function(s) s.a = 1 end)
  store:setShared(A, 5)
  expect(store:state("a")).to_be(5)
  local ok = pcall(function() store:send("bumpAndFail") end)
  expect(ok).to_be(false)
  expect(store:shared(A)).to_be(5)
  expect(store:state("a")).to_be(5)
  store:send("bump", function(s) s.a = 6 end)
  expect(store:shared(A)).to_be(6)
end)
