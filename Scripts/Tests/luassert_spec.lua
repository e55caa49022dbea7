-- luassert's API in relua test (Sources/ReluaTesting/LuaTestLuassert.swift): the global `assert`
-- is still Lua's when called, and has luassert's chains, spies, stubs and matchers.
--
-- Failing assertions are checked through `failure(fn)`: it runs `fn`, which must raise, and returns
-- the message. The messages start with this file's `file:line` (the failing assert's line).

local function failure(fn)
  local ok, message = pcall(fn)
  if ok then error("expected the assertion to fail", 2) end
  return message
end

-- The message without its `…luassert_spec.lua:N: ` prefix, checking that the prefix is there.
local function message(fn)
  local text = failure(fn)
  local rest = text:match("^[^\n]*luassert_spec%.lua:%d+: (.*)$")
  if not rest then error("no file:line in " .. tostring(text), 2) end
  return rest
end

describe("assert called as a function", function()
  it("is Lua's assert", function()
    local a, b, c = assert(1, "message", 3)
    assert_equal({ a, b, c }, { 1, "message", 3 })
    assert_equal(message(function() assert(false, "plain") end), "plain")
    assert_equal(message(function() assert(nil) end), "assertion failed!")
    local ok, raised = pcall(function() assert(false, { code = 1 }) end)
    assert_equal({ ok, raised }, { false, { code = 1 } })
  end)
end)

describe("equality", function()
  it("same compares contents, equal compares with ==", function()
    assert.same({ 1, { a = 2 } }, { 1, { a = 2 } })
    assert.are.same("x", "x")
    assert.are_same({}, {})
    assert.equal(1, 1.0)
    assert.equals("a", "a")
    assert.are.equal(true, true)
    local t = {}
    assert.are.equal(t, t)
    assert.are_not.equal({}, {})
    assert.is_not.same({ 1 }, { 2 })
    assert.not_same({ 1 }, { 1, 2 })
    assert.not_equal(1, 2)
    assert.near(1.0, 1.05, 0.1)
    assert.is_not.near(1.0, 1.5, 0.1)
  end)

  it("returns its arguments on success", function()
    local a, b = assert.same(1, 1)
    assert_equal({ a, b }, { 1, 1 })
  end)

  it("same fails with luassert's message and a diff in Lua syntax", function()
    local text = message(function() assert.same({ a = 1, b = { 1, 2 } }, { a = 1, b = { 1, 3 } }) end)
    assert_equal(text, table.concat({
      "Expected objects to be the same.",
      "Passed in:",
      "(table) { a = 1, b = { 1, 3 } }",
      "Expected:",
      "(table) { a = 1, b = { 1, 2 } }",
      "Difference (\u{2212} expected, + passed in):",
      "    {",
      "      … (1 unchanged)",
      "      b = {",
      "        … (1 unchanged)",
      "  \u{2212}     2,",
      "  +     3,",
      "      },",
      "    }",
    }, "\n"))
  end)

  it("same on tables that are not plain data has no diff", function()
    local f = function() end
    local text = message(function() assert.same({ f = f }, { f = 1 }) end)
    assert.is_nil(text:find("Difference", 1, true))
    assert.matches("^Expected objects to be the same%.\nPassed in:\n%(table%)", text)
    local cycle = {}
    cycle.self = cycle
    text = message(function() assert.same(cycle, { self = 1 }) end)
    assert.is_nil(text:find("Difference", 1, true))
  end)

  it("scalars fail with luassert's formatting", function()
    assert_equal(message(function() assert.equal(1, 2) end),
      "Expected objects to be equal.\nPassed in:\n(number) 2\nExpected:\n(number) 1")
    assert_equal(message(function() assert.are.same("a", "b") end),
      "Expected objects to be the same.\nPassed in:\n(string) 'b'\nExpected:\n(string) 'a'")
    assert_equal(message(function() assert.are_not.equal(1, 1) end),
      "Expected objects to not be equal.\nPassed in:\n(number) 1\nDid not expect:\n(number) 1")
    assert_equal(message(function() assert.is_not.same({ 1 }, { 1 }) end),
      "Expected objects to not be the same.\nPassed in:\n(table) { 1 }\nDid not expect:\n(table) { 1 }")
  end)

  it("equal on two tables with the same contents says so", function()
    local text = message(function() assert.equal({ 1 }, { 1 }) end)
    assert.matches("equal compares identity, same compares contents", text, 1, true)
  end)

  it("a custom message comes first, on a line before luassert's", function()
    assert_equal(message(function() assert.same(1, 2, "the count") end),
      "the count\nExpected objects to be the same.\nPassed in:\n(number) 2\nExpected:\n(number) 1")
    assert_equal(message(function() assert.is_true(false, "the flag") end),
      "the flag\nExpected objects to be the same.\nPassed in:\n(boolean) false\nExpected:\n(boolean) true")
    -- A table without __tostring is shown as a value; assert.message(m) gives one to any assertion.
    assert_equal(message(function() assert.equal(1, 2, { 3 }) end),
      "(table) { 3 }\nExpected objects to be equal.\nPassed in:\n(number) 2\nExpected:\n(number) 1")
    assert_equal(message(function() assert.message("the total").equal(1, 2) end),
      "the total\nExpected objects to be equal.\nPassed in:\n(number) 2\nExpected:\n(number) 1")
    assert_equal(message(function() assert.message("why").is_not.Nil(nil) end),
      "why\nExpected objects to not be the same.\nPassed in:\n(nil)\nDid not expect:\n(nil)")
    assert.message("unused").equal(1, 1)
  end)
end)

describe("values and types", function()
  it("true, false, nil, truthy, falsy", function()
    assert.is_true(true)
    assert.True(true)
    assert.is.True(true)
    assert.is_false(false)
    assert.is.False(false)
    assert.is_not_true(1)
    assert.is_nil(nil)
    assert.is.Nil(nil)
    assert.is_not.Nil(false)
    assert.is_truthy(0)
    assert.truthy("")
    assert.is_falsy(nil)
    assert.falsy(false)
    assert.is_not.truthy(nil)
    assert.is_not_falsy(0)
  end)

  it("type checks", function()
    assert.is_number(1)
    assert.is_string("s")
    assert.is_table({})
    assert.is_function(print)
    assert.is_boolean(false)
    assert.is_thread(coroutine.create(print))
    assert.is_not_number("1")
    assert.is_not.string(1)
    assert.is_not_userdata({})
  end)

  it("fail with luassert's messages", function()
    assert_equal(message(function() assert.is_true(1) end),
      "Expected objects to be the same.\nPassed in:\n(number) 1\nExpected:\n(boolean) true")
    assert_equal(message(function() assert.is_nil(1) end),
      "Expected objects to be the same.\nPassed in:\n(number) 1\nExpected:\n(nil)")
    assert_equal(message(function() assert.is_string(1) end),
      "Expected objects to be the same.\nPassed in:\n(number) 1\nExpected:\ntype string")
    assert_equal(message(function() assert.is_not.table({}) end),
      "Expected objects to not be the same.\nPassed in:\n(table) {}\nDid not expect:\ntype table")
    assert_equal(message(function() assert.truthy(false) end), "Expected to be truthy, but value was:\n(boolean) false")
    assert_equal(message(function() assert.falsy(0) end), "Expected to be falsy, but value was:\n(number) 0")
  end)

  it("unknown names are clear errors", function()
    assert.matches("luassert: unknown modifier/assertion: 'sam'", failure(function() return assert.sam end))
  end)
end)

describe("matches", function()
  it("matches a Lua pattern", function()
    assert.matches("^%d+$", "123")
    assert.does.match("b", "abc")
    assert.does_not.match("^b", "abc")
    assert.matches("1", 12)
  end)

  it("fails with luassert's message", function()
    assert_equal(message(function() assert.matches("^b", "abc") end),
      "Expected strings to match.\nPassed in:\n(string) 'abc'\nExpected:\n(string) '^b'")
    assert_equal(message(function() assert.does_not.match("b", "abc") end),
      "Expected strings not to match.\nPassed in:\n(string) 'abc'\nDid not expect:\n(string) 'b'")
  end)
end)

describe("errors", function()
  it("has_error, error, errors, has_no.errors", function()
    assert.has_error(function() error("boom") end)
    assert.has_error(function() error("boom") end, "boom")  -- without the file:line prefix
    assert.has_error(function() error({ code = 2 }) end, { code = 2 })
    assert.error(function() error("x", 0) end, "x")
    assert.errors(function() error("x") end)
    assert.has_no.errors(function() end)
    assert.has_no_error(function() end)
    assert.error_matches(function() error("bad thing 42") end, "thing %d+")
  end)

  it("fail with luassert's messages", function()
    assert_equal(message(function() assert.has_error(function() end) end),
      "Expected a different error.\nCaught:\n(no error)\nExpected:\n(error)")
    assert_equal(message(function() assert.has_error(function() error("one") end, "two") end),
      "Expected a different error.\nCaught:\n(string) 'one'\nExpected:\n(string) 'two'")
    assert_equal(message(function() assert.has_no.errors(function() error("oops", 0) end) end),
      "Expected no error, but caught:\n(string) 'oops'")
  end)

  it("checks its argument", function()
    assert.matches("bad argument #1 to 'error' %(function expected, got number%)", failure(function() assert.has_error(1) end))
  end)
end)

describe("spies", function()
  it("record calls and return values and call through", function()
    local s = spy.new(function(a, b) return a + b end)
    assert.is_true(spy.is_spy(s))
    assert_equal(s(1, 2), 3)
    s(3, 4)
    assert_equal(#s.calls, 2)
    assert_equal(s.calls[2].vals, { n = 2, 3, 4 })
    assert_equal(s.returnvals[1], { n = 1, 3 })
    assert.spy(s).was.called()
    assert.spy(s).was.called(2)
    assert.spy(s).was_called(2)
    assert.spy(s).was.called_with(1, 2)
    assert.spy(s).was_not.called_with(1, 3)
    assert.spy(s).was.called_at_least(1)
    assert.spy(s).was.called_at_most(2)
    assert.spy(s).was.called_more_than(1)
    assert.spy(s).was.called_less_than(3)
    assert.spy(s).returned_with(7)
    s:clear()
    assert.spy(s).was_not.called()
  end)

  it("copy table arguments as they were at the call (vals) and keep them (refs)", function()
    local s = spy.new()
    local t = { 1 }
    s(t)
    t[1] = 2
    assert.spy(s).was.called_with({ 1 })
    assert.are.equal(s.calls[1].refs[1], t)
  end)

  it("spy.on wraps a table's function, revert puts it back", function()
    local calc = { double = function(x) return x * 2 end }
    local original = calc.double
    local s = spy.on(calc, "double")
    assert_equal(calc.double(4), 8)
    assert.spy(calc.double).was.called_with(4)
    s:revert()
    assert.are.equal(calc.double, original)
    assert.is_false(spy.is_spy(calc.double))
  end)

  it("fail with luassert's messages", function()
    local s = spy.new()
    assert_equal(message(function() assert.spy(s).was.called() end),
      "Expected to be called at least once, but was called 0 time(s)")
    s("x", 1)
    assert_equal(message(function() assert.spy(s).was.called(2) end),
      "Expected to be called exactly 2 time(s), but was called 1 time(s)")
    assert_equal(message(function() assert.spy(s).was_not.called() end),
      "Expected not to be called at least once, but was called 1 time(s)")
    assert_equal(message(function() assert.spy(s).was.called_with("y") end),
      "Function was never called with matching arguments.\nCalled with (last call if any):\n(\"x\", 1)\nExpected:\n(\"y\")")
    assert_equal(message(function() assert.spy(s).was_not.called_with("x", 1) end),
      "Function was called with matching arguments at least once.\nCalled with (last call if any):\n(\"x\", 1)\nDid not expect:\n(\"x\", 1)")
    assert.matches("assert.spy expects a spy or a stub, got %(number%) 1", failure(function() assert.spy(1) end))
  end)
end)

describe("stubs", function()
  it("replace a table's function, return what they are given, revert", function()
    local api = { fetch = function() error("network") end }
    local original = api.fetch
    local s = stub(api, "fetch", "data", 2)
    local a, b = api.fetch("url")
    assert_equal({ a, b }, { "data", 2 })
    assert.stub(api.fetch).was.called_with("url")
    s:returns("other")
    assert_equal(api.fetch(), "other")
    s:invokes(function(x) return x .. "!" end)
    assert_equal(api.fetch("hi"), "hi!")
    assert.stub(s).was.called(3)
    s:revert()
    assert.are.equal(api.fetch, original)
  end)

  it("stub.new without a table is a standalone stub", function()
    local s = stub.new()
    assert.is_nil(s(1))
    assert.stub(s).was.called(1)
  end)
end)

describe("matchers", function()
  it("match arguments in called_with", function()
    local s = spy.new()
    s("text", 3, { 1 }, nil)
    assert.spy(s).was.called_with(match._, match.is_number(), match.is_table(), match.is_nil())
    assert.spy(s).was.called_with(match.is_string(), match.is_not_string(), match.is_same({ 1 }), nil)
    assert.spy(s).was.called_with(match.matches("^te"), match.is_equal(3), match._, match._)
    assert.spy(s).was_not.called_with(match.is_number(), match._, match._, match._)
    local t = {}
    s(t)
    assert.spy(s).was.called_with(match.is_ref(t))
    assert.spy(s).was_not.called_with(match.is_ref({}))
  end)
end)

describe("unique", function()
  it("holds when no two values are equal (deep: same)", function()
    assert.is_unique({ 1, 2, 3 })
    assert.is_not.unique({ 1, 2, 1 })
    assert.unique({ { 1 }, { 1 } })
    assert.is_not.unique({ { 1 }, { 1 } }, true)
    assert.unique({ { 1 }, { 1 } }, "shallow", false)
    assert_equal(message(function() assert.unique({ "a", "a" }, "no twins") end),
      "no twins\nExpected object to be unique:\n(table) { \"a\", \"a\" }")
    assert_equal(message(function() assert.unique({ { 1 }, { 1 } }, true, "no twins") end),
      "no twins\nExpected object to be unique:\n(table) { { 1 }, { 1 } }")
  end)
end)

describe("what passing error assertions return", function()
  it("has_error: the error, its file:line cut off, then the other arguments", function()
    local err = assert.has_error(function() error("boom") end)
    assert_equal(err, "boom")
    local t = { code = 1 }
    assert.are.equal(assert.has_error(function() error(t) end, t), t)
    -- has_no.errors: what the function returned first
    assert_equal(assert.has_no.errors(function() return 7 end), 7)
  end)

  it("error_matches: the captures, matched without the file:line", function()
    assert_equal(assert.error_matches(function() error("code 42") end, "^code (%d+)$"), "42")
    assert_equal({ assert.error_matches(function() error("a=1 b=2") end, "a=(%d) b=(%d)") }, { "1", "2" })
    -- init, plain and the custom message after them, as luassert reads them
    assert.error_matches(function() error("1+1", 0) end, "1+1", 1, true)
    assert.has_no.error_matches(function() error("1+1", 0) end, "1+1")
    assert_equal(message(function() assert.error_matches(function() error("x", 0) end, "y", "the reason") end),
      "the reason\nExpected a different error.\nCaught:\n(string) 'x'\nExpected:\n(string) 'y'")
    assert_equal(message(function() assert.error_matches(function() error("oops") end, "nope") end),
      "Expected a different error.\nCaught:\n(string) 'oops'\nExpected:\n(string) 'nope'")
  end)
end)

describe("stubs as luassert makes them", function()
  it("a stub given one function calls it", function()
    local t = { f = function() return "original" end }
    stub(t, "f", function(x) return "stubbed " .. x end)
    assert_equal(t.f("a"), "stubbed a")
    assert.stub(t.f).was.called_with("a")
  end)

  it("returns and invokes take luassert's dot calls and method calls", function()
    local s = stub.new()
    s.returns(5)
    assert_equal(s(), 5)
    s:returns(6)
    assert_equal({ s() }, { 6 })
    s.invokes(function(x) return x * 2 end)
    assert_equal(s(4), 8)
    s.by_default.returns("default")
    assert_equal(s(), "default")
  end)

  it("on_call_with answers calls with matching arguments, the first set winning", function()
    local t = {}
    local s = stub(t, "get", "default")
    s.on_call_with("a").returns("A")
    s.on_call_with(match.is_number()).invokes(function(n) return n + 1 end)
    s.on_call_with("a").returns("never: the first set wins")
    s:on_call_with({ 1 }):returns("the table")
    assert_equal(t.get("a"), "A")
    assert_equal(t.get(41), 42)
    assert_equal(t.get({ 1 }), "the table")
    assert_equal(t.get("b"), "default")
    assert.stub(s).was.called(4)
  end)
end)

describe("mock", function()
  it("spies on every function of a table and of the tables in it, and reverts them", function()
    local api = { get = function(x) return x end, nested = { put = function() return "put" end }, version = 3 }
    local get, put = api.get, api.nested.put
    local m = mock(api)
    assert.are.equal(m, api)
    assert_equal(api.get(1), 1)
    assert_equal(api.nested.put(), "put")
    assert_equal(api.version, 3)
    assert.spy(api.get).was.called_with(1)
    assert.spy(api.nested.put).was.called(1)
    mock.clear(api)
    assert.spy(api.get).was_not.called()
    mock.revert(api)
    assert.are.equal(api.get, get)
    assert.are.equal(api.nested.put, put)
  end)

  it("with dostub, stubs them instead (answering fn's values, or nothing)", function()
    local api = { get = function() error("network") end }
    mock(api, true)
    assert.is_nil(api.get())
    assert.stub(api.get).was.called(1)
    local answered = mock({ get = function() error("network") end }, true, "cached")
    assert_equal(answered.get(), "cached")
    mock.revert(api)
    assert.has_error(function() api.get() end, "network")
  end)
end)

describe("luassert's extension API", function()
  it("assert:register adds an assertion with say's messages, negation and a custom message", function()
    local say = require("say")
    say:set("assertion.divides.positive", "Expected %s to divide %s")
    say:set("assertion.divides.negative", "Expected %s not to divide %s")
    assert:register("assertion", "divides", function(_, arguments)
      return arguments[2] % arguments[1] == 0
    end, "assertion.divides.positive", "assertion.divides.negative")
    assert.divides(3, 9)
    assert.is_not.divides(2, 9)
    assert_equal(message(function() assert.divides(2, 9) end), "Expected (number) 2 to divide (number) 9")
    assert_equal(message(function() assert.is_not.divides(3, 9) end), "Expected (number) 3 not to divide (number) 9")
    assert_equal(message(function() assert.message("odd").divides(2, 9) end), "odd\nExpected (number) 2 to divide (number) 9")
    assert:unregister("assertion", "divides")
    assert.matches("luassert: unknown modifier/assertion: 'divides'", failure(function() return assert.divides end))
  end)

  it("a registered assertion's state, level, returns, and a key with no message", function()
    assert:register("assertion", "positive", function(state, arguments, level)
      if type(arguments[1]) ~= "number" then error("positive needs a number", level + 1) end
      state.failure_message = arguments[2]
      return arguments[1] > 0, { "given back" }
    end, "no.such.key", "no.such.key")
    assert_equal(assert.is_positive(1), "given back")
    assert_equal(message(function() assert.positive(-1) end), "assertion failed!")
    assert_equal(message(function() assert.positive(-1, "below zero") end), "below zero")
    assert_equal(message(function() assert.positive("x") end), "positive needs a number")
  end)

  it("assert:register adds modifiers, which act on luassert's state", function()
    assert:register("modifier", "about", function(state, arguments)
      if arguments then state.payload = arguments[1] end
    end)
    assert:register("assertion", "named", function(state, arguments)
      return state.payload ~= nil and state.payload.name == arguments[1]
    end)
    assert.about({ name = "x" }).named("x")
    assert.about({ name = "x" }).is_not.named("y")
    assert.matches("assertion failed!", failure(function() assert.about({ name = "x" }).named("y") end))
    -- Not called with arguments, a modifier acts on the state just before the assertion.
    assert:register("modifier", "anonymous", function(state, arguments)
      assert.is_nil(arguments)
      state.payload = { name = "anonymous" }
    end)
    assert.anonymous.named("anonymous")
    assert.is_not.anonymous.named("x")
  end)

  it("registering an existing name replaces it", function()
    assert:register("assertion", "truthy", function(_, arguments) return arguments[1] == "yes" end)
    assert.truthy("yes")
    assert.is_not.truthy(true)
    assert:unregister("assertion", "same")
    assert.matches("unknown modifier/assertion: 'same'", failure(function() return assert.same end))
  end)

  it("assert:register adds matchers; match.all_of, any_of and none_of combine them", function()
    local mods = {}
    assert:register("matcher", "even", function(state)
      mods[#mods + 1] = state.mod
      return function(value) return type(value) == "number" and value % 2 == 0 end
    end)
    local s = spy.new()
    s(2, 3)
    assert.spy(s).was.called_with(match.is_even(), match.is_not_even())
    assert.spy(s).was.called_with(match.all_of(match.is_number(), match.is_even()), match._)
    assert.spy(s).was.called_with(match._, match.any_of(match.is_even(), match.is_same(3)))
    assert.spy(s).was.called_with(match.none_of(match.is_string(), match.is_nil()), match._)
    assert.spy(s).was_not.called_with(match.all_of(match.is_number(), match.is_not_even()), match._)
    assert.is_true(match.is_matcher(match.is_even()))
    assert.is_true(match.is_even()(4))
    assert.is_false(match.is_not_even()(4))
    assert_equal(mods, { true, false, true, true, false, true, true, false })
    assert.matches("bad argument #1 to 'all_of' %(matcher expected, got number%)", failure(function() match.all_of(1) end))
  end)

  it("assert:format and formatters shape the values in every message", function()
    local args = assert:format({ 1, "a", nil, { 2 }, n = 4, nofmt = { [2] = true } })
    assert_equal({ args[1], args[2], args[3], args[4] }, { "(number) 1", "a", "(nil)", "(table) { 2 }" })
    local function money(value)
      if type(value) == "table" and value.cents then return ("$%.2f"):format(value.cents / 100) end
    end
    assert:add_formatter(money)
    assert_equal(message(function() assert.same({ cents = 150 }, { cents = 250 }) end):match("^[^\n]*\n[^\n]*\n[^\n]*"),
      "Expected objects to be the same.\nPassed in:\n$2.50")
    assert:remove_formatter(money)
    assert.matches("Passed in:\n%(table%) { cents = 250 }", failure(function() assert.same({ cents = 150 }, { cents = 250 }) end))
  end)

  it("parameters are kept; namespaces other than luassert's are refused", function()
    assert_equal(assert:get_parameter("TableFormatLevel"), 3)
    assert:set_parameter("TableFormatLevel", -1)
    assert_equal(assert:get_parameter("TableFormatLevel"), -1)
    assert.matches("no namespace 'formatter'", failure(function() assert:register("formatter", "x", print) end))
  end)

  it("say: namespaces, a fallback, and formatting", function()
    local say = require("say")
    say:set("greeting", "hello %s")
    assert_equal(say("greeting", { "you" }), "hello you")
    say:set_namespace("fr")
    assert_equal(say("greeting", { "toi" }), "hello toi")  -- from the fallback, en
    say:set("greeting", "salut %s")
    assert_equal(say("greeting", { "toi" }), "salut toi")
    assert.is_nil(say("nothing"))
    say:set_namespace("en")
    assert_equal(say.fr.greeting, "salut %s")
  end)
end)

describe("the modules a spec may require", function()
  it("luassert's and busted's are relua's own", function()
    assert.are.equal(require("luassert"), assert)
    assert.are.equal(require("luassert.spy"), spy)
    assert.are.equal(require("luassert.stub"), stub)
    assert.are.equal(require("luassert.mock"), mock)
    assert.are.equal(require("luassert.match"), match)
    local busted = require("busted")
    assert.are.equal(busted.it, it)
    assert.are.equal(busted.describe, describe)
    assert.are.equal(busted.before_each, before_each)
    assert.are.equal(busted.assert, assert)
    assert.are.equal(busted.finally, finally)
    assert.matches("busted.subscribe is not in relua test", failure(function() return busted.subscribe end))
    assert.is_nil(require("busted.runner")())
  end)
end)

describe("expect and assert_equal", function()
  it("still work", function()
    expect({ 1 }).to_be({ 1 })
    assert_equal({ a = 1 }, { a = 1 })
  end)
end)
