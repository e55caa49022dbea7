-- busted's structure of specs in relua test: describe/it/pending, before_each/after_each,
-- setup/teardown, lazy_setup/lazy_teardown, finally, insulate/expose, context/spec/strict_*.
--
-- Every test runs in a fresh Lua state, so `log` below starts empty in each, and holds what ran
-- in that test's state, in order. A test checks the hooks that ran before it; the file's own
-- teardown, which runs last of all, checks the rest of the order against `expectedEnd`, which the
-- test sets — a wrong order fails the test there ("teardown (busted_structure_spec.lua:…) failed").

local log = {}
local expectedEnd = nil
local function record(what) log[#log + 1] = what end

local function slice(list, from)
  local out = {}
  for i = from, #list do out[#out + 1] = list[i] end
  return out
end

local bodyAt = nil  -- where in `log` the body recorded itself

teardown(function()
  record("teardown file")
  if expectedEnd then
    assert(bodyAt, "the body did not record itself")
    assert_equal(slice(log, bodyAt), expectedEnd, "what ran after the body")
  end
end)

setup(function() record("setup file") end)

describe("hooks", function()
  setup(function() record("setup outer") end)
  lazy_setup(function() record("lazy_setup outer") end)
  before_each(function() record("before_each outer") end)
  after_each(function() record("after_each outer") end)
  lazy_teardown(function() record("lazy_teardown outer") end)
  teardown(function() record("teardown outer") end)

  it("run outer first before the test, once each", function()
    assert_equal(log, { "setup file", "setup outer", "lazy_setup outer", "before_each outer" })
    bodyAt = #log + 1
    record("body")
    expectedEnd = { "body", "after_each outer", "lazy_teardown outer", "teardown outer", "teardown file" }
  end)

  describe("nested", function()
    strict_setup(function() record("setup inner") end)
    lazy_setup(function() record("lazy_setup inner") end)
    before_each(function() record("before_each inner") end)
    before_each(function() record("before_each inner 2") end)
    after_each(function() record("after_each inner") end)
    lazy_teardown(function() record("lazy_teardown inner") end)
    strict_teardown(function() record("teardown inner") end)

    it("strict setups outer to inner, then lazy ones, then before_each outer to inner", function()
      assert_equal(log, {
        "setup file", "setup outer", "setup inner",
        "lazy_setup outer", "lazy_setup inner",
        "before_each outer", "before_each inner", "before_each inner 2",
      })
      bodyAt = #log + 1
      record("body")
      -- after_each inner first; then, block by block from the inside, lazy_teardown and teardown
      -- (busted ends the inner block before the outer one).
      expectedEnd = {
        "body", "after_each inner", "after_each outer",
        "lazy_teardown inner", "teardown inner", "lazy_teardown outer", "teardown outer", "teardown file",
      }
    end)

    it("runs finally after the body, before after_each", function()
      bodyAt = #log + 1
      finally(function() record("finally") end)
      record("body")
      expectedEnd = {
        "body", "finally", "after_each inner", "after_each outer",
        "lazy_teardown inner", "teardown inner", "lazy_teardown outer", "teardown outer", "teardown file",
      }
    end)

    it("keeps only the last finally, as busted", function()
      bodyAt = #log + 1
      finally(function() record("first finally") end)
      finally(function() record("last finally") end)
      record("body")
      expectedEnd = {
        "body", "last finally", "after_each inner", "after_each outer",
        "lazy_teardown inner", "teardown inner", "lazy_teardown outer", "teardown outer", "teardown file",
      }
    end)
  end)

  it("does not see the hooks of a block it is not in", function()
    for _, entry in ipairs(log) do
      assert(not entry:find("inner"), entry)
    end
  end)
end)

describe("a test's state", function()
  local count = 0
  before_each(function() count = count + 1 end)

  it("is its own: before_each ran once here", function() assert_equal(count, 1) end)
  it("and once here too", function() assert_equal(count, 1) end)
end)

describe("a test store made in hooks", function()
  local relua = require "relua"
  local Ticker = relua.feature "BustedTicker" {
    state = { ticks = 0, running = false },
    actions = { start = {}, stop = {}, tick = {} },
    reduce = relua.on {
      start = function(s, _, deps)
        s.running = true
        return relua.Effect.run(function(send)
          while true do
            deps.clock.sleep(1)
            send("tick")
          end
        end):cancellable("ticker", true)
      end,
      stop = function(s)
        s.running = false
        return relua.Effect.cancel("ticker")
      end,
      tick = function(s) s.ticks = s.ticks + 1 end,
    },
  }
  local store

  before_each(function()
    store = relua.TestStore(Ticker, { deps = { clock = "test" } })
    store:send("start", function(s) s.running = true end)
    store:advance(1) -- a hook awaits, as a test body does
    store:receive("tick", function(s) s.ticks = 1 end)
  end)

  -- The end-of-test checks come after the last hook: the ticker still runs when the body ends.
  after_each(function()
    store:send("stop", function(s) s.running = false end)
  end)

  it("is driven by the test and stopped by after_each", function()
    store:advance(1)
    store:receive("tick", function(s) s.ticks = 2 end)
  end)
end)

context("context and spec", function()
  spec("are describe and it", function() assert_equal(log[1], "setup file") end)
end)

-- luacheck: globals insulated_global exposed_global undone_global (globals on purpose: insulate's subject)
insulate("insulate", function()
  insulated_global = "inside"
  package.loaded["busted_structure_fake"] = { answer = 42 }
  local seenBySetup
  setup(function() seenBySetup = insulated_global end)

  it("lets its tests and hooks see what its body set", function()
    assert_equal(insulated_global, "inside")
    assert_equal(seenBySetup, "inside")
    assert_equal(require("busted_structure_fake").answer, 42)
  end)

  insulate("nested", function()
    insulated_global = "nested"
    it("sees the innermost body's value", function() assert_equal(insulated_global, "nested") end)
  end)

  it("does not see a nested insulate's changes", function() assert_equal(insulated_global, "inside") end)
end)

insulate("insulate with an expose", function()
  -- busted's expose: what the insulating parent changed up to the expose's end stays after it.
  expose("expose inside", function()
    exposed_global = "promoted"
  end)
  undone_global = "undone"
end)

describe("after an insulate block", function()
  it("does not see its globals or its package.loaded", function()
    assert_equal(insulated_global, nil)
    assert_equal(package.loaded["busted_structure_fake"], nil)
  end)

  it("sees what an expose block inside one set, not what came after it (busted's expose)", function()
    assert_equal(exposed_global, "promoted")
    assert_equal(undone_global, nil)
  end)
end)

describe("pending", function()
  pending("a pending declaration is counted as skipped")
end)
