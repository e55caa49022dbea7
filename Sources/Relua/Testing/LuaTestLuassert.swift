import Lua

/// luassert's API in test files (busted's assertions): the global `assert` stays Lua's own when
/// called (`assert(v, msg)`), and gains luassert's chains: `assert.same`, `assert.are.equal`,
/// `assert.is_true`, `assert.is_not.Nil`, `assert.has_error`, `assert.has_no.errors`,
/// `assert.matches`, type checks, `assert.spy(s).was.called_with(...)`. Keys split at `_` into
/// modifiers (`is`, `are`, `was`, `has`, `does`; `not`/`no` negate) and one assertion, in any
/// case. Also the globals `spy`, `stub` and `match` (matchers for `called_with`).
///
/// Failures are luassert's messages (`Expected objects to be the same.\nPassed in:\n…`), raised at
/// the test's line; a failed `same`/`equal` on two tables of plain data adds their diff in Lua
/// syntax (`ValueDiff`, from expected to passed in), as the TestStore's state mismatches.
///
/// Run in a test's state after `ReluaHost` is installed, with the value printer
/// (`LuaValuePrinter`) and `diff(expected, actual)` (text or nil) as the chunk's arguments.
enum LuaTestLuassert {
  static let chunkName = "=[relua luassert]"

  /// `diff(expected, actual)`: the tables' diff in Lua syntax, nil when equal as `Value`s; raises
  /// when a table is not a `Value` (the chunk then leaves the diff out).
  @MainActor
  static func diffFunction(in state: LuaState, host: ReluaHost) throws -> LuaFunction {
    try state.function { [weak host] stack in
      // Lua calls it on the state's actor, the main one.
      let text = try MainActor.assumeIsolated { () throws -> String? in
        guard let host else { return nil }
        let expected = try host.value(from: stack.value(at: 1))
        let actual = try host.value(from: stack.value(at: 2))
        return ValueDiff.lines(from: expected, to: actual)
      }
      guard let text else { return [] }
      return [.text(text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))]
    }
  }

  static let source = #"""
    local render, diffTables, sameValues = ...
    local type, next, rawget, rawequal, getmetatable, setmetatable, tostring, pcall, error, select =
      type, next, rawget, rawequal, getmetatable, setmetatable, tostring, pcall, error, select
    local format, lower, concat, mathtype, abs = string.format, string.lower, table.concat, math.type, math.abs

    -- Values as luassert shows them: `(number) 3`, `(string) 'text'`, `(nil)`; tables and the rest
    -- as `expect` prints them (`render`, from LuaTestAssertions: one line, cut by the same rule).
    local function show(value)
      local t = type(value)
      if t == "nil" then return "(nil)" end
      if t == "string" then return "(string) '" .. value .. "'" end
      if t == "number" or t == "boolean" then return "(" .. t .. ") " .. tostring(value) end
      return "(" .. t .. ") " .. render(value)
    end
    local function showList(list)
      if list == nil then return "(no calls)" end
      local parts = {}
      for i = 1, list.n do parts[i] = render(list[i]) end
      return "(" .. concat(parts, ", ") .. ")"
    end

    -- luassert's `same`: deep for plain tables (raw contents, cycles allowed), `==` otherwise —
    -- `expect`'s own comparison (LuaTestAssertions), passed in.
    local function deepEqual(a, b) return sameValues(a, b) end

    -- Tables of plain data (no metatables, functions or cycles) have a diff in Lua syntax, as the
    -- TestStore's state mismatches (Swift's `ValueDiff`, from expected to passed in).
    local function plain(value, open)
      local t = type(value)
      if t ~= "table" then return t == "string" or t == "number" or t == "boolean" end
      if getmetatable(value) ~= nil or open[value] then return false end
      open[value] = true
      for k, v in next, value do
        local kt = type(k)
        if (kt ~= "string" and kt ~= "number") or not plain(v, open) then return false end
      end
      open[value] = nil
      return true
    end
    local function difference(expected, actual)
      if type(expected) ~= "table" or type(actual) ~= "table" then return "" end
      if not (plain(expected, {}) and plain(actual, {})) then return "" end
      local ok, text = pcall(diffTables, expected, actual)
      if ok and type(text) == "string" then
        return "\nDifference (\u{2212} expected, + passed in):\n" .. text
      end
      return ""
    end

    local function pack(...) return { n = select("#", ...), ... } end

    -- Matchers (`match._`, `match.is_string()`, `match.is_same(x)`): in called_with/returned_with.
    local MATCHER = {}
    local function isMatcher(value) return type(value) == "table" and rawget(value, MATCHER) ~= nil end
    -- A call matches when each argument is `same` as the expected one (as it was at the call:
    -- `vals`) or satisfies its matcher (given the argument itself: `refs`, so `match.is_ref` works).
    local function matchArgs(actual, expected, refs)
      if actual.n ~= expected.n then
        -- trailing nils aside, the counts must agree
        local an, en = actual.n, expected.n
        while an > 0 and actual[an] == nil do an = an - 1 end
        while en > 0 and expected[en] == nil do en = en - 1 end
        if an ~= en then return false end
      end
      for i = 1, math.max(actual.n, expected.n) do
        local e = expected[i]
        if isMatcher(e) then
          if not rawget(e, MATCHER)((refs or actual)[i]) then return false end
        elseif not deepEqual(e, actual[i]) then
          return false
        end
      end
      return true
    end

    local function spyOf(st, name)
      local s = st.payload
      if s == nil then error(format("'%s' must be chained after 'spy(aspy)' or 'stub(astub)'", name), 4) end
      return s
    end

    -- The assertions: `test(args, chain)` says whether it holds; `positive`/`negative` word the
    -- failure; `message` is the position of the optional custom message.
    local assertions = {}
    local function same(args) return deepEqual(args[1], args[2]) end
    assertions.same = {
      message = 3, test = same,
      positive = function(a)
        return format("Expected objects to be the same.\nPassed in:\n%s\nExpected:\n%s", show(a[2]), show(a[1]))
          .. difference(a[1], a[2])
      end,
      negative = function(a)
        return format("Expected objects to not be the same.\nPassed in:\n%s\nDid not expect:\n%s", show(a[2]), show(a[1]))
      end,
    }
    assertions.equals = {
      message = 3, test = function(a) return a[1] == a[2] end,
      positive = function(a)
        local text = format("Expected objects to be equal.\nPassed in:\n%s\nExpected:\n%s", show(a[2]), show(a[1]))
        if type(a[1]) == "table" and type(a[2]) == "table" and deepEqual(a[1], a[2]) then
          return text .. "\n(two tables with the same contents: equal compares identity, same compares contents)"
        end
        return text .. difference(a[1], a[2])
      end,
      negative = function(a)
        return format("Expected objects to not be equal.\nPassed in:\n%s\nDid not expect:\n%s", show(a[2]), show(a[1]))
      end,
    }
    assertions.equal = assertions.equals
    assertions.near = {
      message = 4,
      test = function(a)
        if type(a[1]) ~= "number" or type(a[2]) ~= "number" or type(a[3]) ~= "number" then
          error("bad arguments to 'near' (numbers expected: expected, passed in, tolerance)", 3)
        end
        return abs(a[1] - a[2]) <= a[3]
      end,
      positive = function(a)
        return format("Expected values to be near.\nPassed in:\n%s\nExpected:\n%s +/- %s", show(a[2]), show(a[1]), show(a[3]))
      end,
      negative = function(a)
        return format("Expected values to not be near.\nPassed in:\n%s\nDid not expect:\n%s +/- %s", show(a[2]), show(a[1]), show(a[3]))
      end,
    }
    local function oneValue(expectedText, test)
      return {
        message = 2, test = test,
        positive = function(a)
          return format("Expected objects to be the same.\nPassed in:\n%s\nExpected:\n%s", show(a[1]), expectedText)
        end,
        negative = function(a)
          return format("Expected objects to not be the same.\nPassed in:\n%s\nDid not expect:\n%s", show(a[1]), expectedText)
        end,
      }
    end
    assertions["true"] = oneValue("(boolean) true", function(a) return a[1] == true end)
    assertions["false"] = oneValue("(boolean) false", function(a) return a[1] == false end)
    for _, t in next, { "nil", "boolean", "number", "string", "table", "function", "userdata", "thread" } do
      local one = oneValue("type " .. t, function(a) return type(a[1]) == t end)
      if t == "nil" then one.positive = oneValue("(nil)").positive one.negative = oneValue("(nil)").negative end
      assertions[t] = one
    end
    assertions.truthy = {
      message = 2, test = function(a) return not not a[1] end,
      positive = function(a) return "Expected to be truthy, but value was:\n" .. show(a[1]) end,
      negative = function(a) return "Expected to not be truthy, but value was:\n" .. show(a[1]) end,
    }
    assertions.falsy = {
      message = 2, test = function(a) return not a[1] end,
      positive = function(a) return "Expected to be falsy, but value was:\n" .. show(a[1]) end,
      negative = function(a) return "Expected to not be falsy, but value was:\n" .. show(a[1]) end,
    }
    assertions.matches = {
      message = 3,
      test = function(a)
        if type(a[1]) ~= "string" then
          error(format("bad argument #1 to 'matches' (string expected, got %s)", type(a[1])), 3)
        end
        local s = a[2]
        if type(s) == "number" then s = tostring(s) end
        return type(s) == "string" and s:find(a[1]) ~= nil
      end,
      positive = function(a) return format("Expected strings to match.\nPassed in:\n%s\nExpected:\n%s", show(a[2]), show(a[1])) end,
      negative = function(a) return format("Expected strings not to match.\nPassed in:\n%s\nDid not expect:\n%s", show(a[2]), show(a[1])) end,
    }
    assertions.match = assertions.matches

    -- has_error(fn[, expected]): a string error is compared without its `file:line: ` prefix.
    local function caught(a)
      if type(a[1]) ~= "function" and not (getmetatable(a[1]) or {}).__call then
        error(format("bad argument #1 to 'error' (function expected, got %s)", type(a[1])), 4)
      end
      local ok, raised = pcall(a[1])
      if ok then return false, nil end
      return true, raised
    end
    local function stripped(raised)
      if type(raised) == "string" then raised = raised:gsub("^.-:%d+: ", "", 1) end
      return raised
    end
    assertions.error = {
      message = 3,
      test = function(a, st)
        local raisedAny, raised = caught(a)
        st.caught = raised
        if a[2] == nil then return raisedAny end
        if st.negated then return raisedAny end  -- has_no.error(fn, x): any error fails
        return raisedAny and deepEqual(a[2], stripped(raised))
      end,
      positive = function(a, st)
        return format("Expected a different error.\nCaught:\n%s\nExpected:\n%s", show(stripped(st.caught)),
          a[2] == nil and "(any error)" or show(a[2]))
      end,
      negative = function(_, st) return "Expected no error, but caught:\n" .. show(st.caught) end,
    }
    assertions.errors = assertions.error
    assertions.error_matches = {
      message = 3,
      test = function(a, st)
        local raisedAny, raised = caught(a)
        st.caught = raised
        if not raisedAny then return false end
        return type(a[2]) == "string" and tostring(raised):find(a[2]) ~= nil
      end,
      positive = function(a, st)
        return format("Expected a different error.\nCaught:\n%s\nExpected:\n%s", show(st.caught), show(a[2]))
      end,
      negative = function(a, st)
        return format("Expected the error not to match.\nCaught:\n%s\nDid not expect:\n%s", show(st.caught), show(a[2]))
      end,
    }
    assertions.error_match = assertions.error_matches
    assertions.matches_error = assertions.error_matches
    assertions.match_error = assertions.error_matches

    -- Spies' assertions, chained after assert.spy(s) / assert.stub(s).
    local function callCount(st, name) return #spyOf(st, name).calls end
    local function countAssertion(name, holds, wording)
      assertions[name] = {
        test = function(a, st)
          if a[1] ~= nil and mathtype(a[1]) ~= "integer" then
            error(format("bad argument #1 to '%s' (integer expected, got %s)", name, type(a[1])), 3)
          end
          return holds(callCount(st, name), a[1])
        end,
        positive = function(a, st)
          return format("Expected to be called %s, but was called %d time(s)", wording(a[1]), callCount(st, name))
        end,
        negative = function(a, st)
          return format("Expected not to be called %s, but was called %d time(s)", wording(a[1]), callCount(st, name))
        end,
      }
    end
    countAssertion("called", function(count, n) if n == nil then return count > 0 end return count == n end,
      function(n) return n == nil and "at least once" or format("exactly %d time(s)", n) end)
    countAssertion("called_at_least", function(count, n) return count >= n end,
      function(n) return format("at least %d time(s)", n) end)
    countAssertion("called_at_most", function(count, n) return count <= n end,
      function(n) return format("at most %d time(s)", n) end)
    countAssertion("called_more_than", function(count, n) return count > n end,
      function(n) return format("more than %d time(s)", n) end)
    countAssertion("called_less_than", function(count, n) return count < n end,
      function(n) return format("less than %d time(s)", n) end)

    local function withAssertion(name, list, field, what)
      assertions[name] = {
        test = function(a, st)
          for _, record in next, spyOf(st, name)[list] do
            if matchArgs(record[field] or record, a, record.refs) then return true end
          end
          return false
        end,
        positive = function(a, st)
          local records = spyOf(st, name)[list]
          local last = records[#records]
          return format("Function was never %s matching arguments.\n%s (last call if any):\n%s\nExpected:\n%s",
            what, what:gsub("^%l", string.upper), showList(last and (last[field] or last)), showList(a))
        end,
        negative = function(a, st)
          local records = spyOf(st, name)[list]
          local last = records[#records]
          return format("Function was %s matching arguments at least once.\n%s (last call if any):\n%s\nDid not expect:\n%s",
            what, what:gsub("^%l", string.upper), showList(last and (last[field] or last)), showList(a))
        end,
      }
    end
    withAssertion("called_with", "calls", "vals", "called with")
    withAssertion("returned_with", "returnvals", nil, "returned with")

    -- Chains: `assert.is_not.same`, `assert.has_no.errors`, `assert.spy(s).was_not.called()`.
    -- A key splits at `_` into modifiers (is, are, was, has, does: no-ops; not, no: negate) and one
    -- assertion (longest match first, so `error_matches` is one name); case does not matter.
    local modifiers = { is = "", are = "", was = "", has = "", does = "", ["not"] = "not", no = "not" }
    local spyAssertions = { spy = true, stub = true }

    local function parse(key, known)
      local tokens = {}
      for token in lower(key):gmatch("[^_]+") do tokens[#tokens + 1] = token end
      local words, i = {}, #tokens
      while i > 0 do
        local found
        for j = 1, i do
          local candidate = concat(tokens, "_", j, i)
          if modifiers[candidate] or known[candidate] then found = j break end
        end
        if not found then return nil, tokens[i] end
        table.insert(words, 1, concat(tokens, "_", found, i))
        i = found - 1
      end
      return words
    end

    local spyMethods = {}
    local spyMT = { __index = spyMethods }
    local function isSpy(value) return type(value) == "table" and getmetatable(value) == spyMT end

    local STATE = {}
    local chainMT = {}
    local function chain(st) return setmetatable({ [STATE] = st }, chainMT) end

    local knownAssertions = setmetatable({}, { __index = function(_, k) return assertions[k] or spyAssertions[k] end })

    function chainMT.__index(self, key)
      if type(key) ~= "string" then return nil end
      local st = rawget(self, STATE)
      local words, unknown = parse(key, knownAssertions)
      if not words then error(format("luassert: unknown modifier/assertion: '%s'", unknown), 2) end
      local negated, name = st.negated, st.name
      for _, word in next, words do
        if modifiers[word] == "not" then negated = not negated
        elseif modifiers[word] == nil then
          if name ~= nil then error(format("luassert: '%s' follows the assertion '%s'", word, name), 2) end
          name = word
        end
      end
      return chain({ negated = negated, name = name, payload = st.payload })
    end

    function chainMT.__call(self, ...)
      local st = rawget(self, STATE)
      if st.root then  -- Lua's own assert(v[, message, ...]), raising at the caller's line as it does
      if (...) then return ... end
      local count = select("#", ...)
      if count == 0 then error("bad argument #1 to 'assert' (value expected)", 2) end
      if count < 2 then error("assertion failed!", 2) end
      error((select(2, ...)), 2)
    end
      local name = st.name
      if name == nil then error("luassert: the chain names no assertion", 2) end
      if spyAssertions[name] then
        local s = ...
        if not isSpy(s) then error(format("assert.%s expects a spy or a stub, got %s", name, show(s)), 2) end
        return chain({ negated = st.negated, payload = s })
      end
      local assertion = assertions[name]
      local args = pack(...)
      local run = { negated = st.negated, payload = st.payload }
      if (not assertion.test(args, run)) == (not st.negated) then
        local custom = assertion.message and args[assertion.message]
        local text
        if custom ~= nil then text = tostring(custom)
        elseif st.negated then text = assertion.negative(args, run)
        else text = assertion.positive(args, run) end
        error(text, 2)
      end
      return ...
    end

    assert = chain({ root = true })

    -- spy.new(fn), spy.on(t, "name"), stub(t, "name"[, returns...]), stub.new(...).

    local function deepCopy(value, seen)
      if type(value) ~= "table" then return value end
      seen = seen or {}
      if seen[value] then return seen[value] end
      local copy = {}
      seen[value] = copy
      for k, v in next, value do copy[deepCopy(k, seen)] = deepCopy(v, seen) end
      return setmetatable(copy, getmetatable(value))
    end

    function spyMT.__call(self, ...)
      local refs = pack(...)
      local vals = { n = refs.n }
      for i = 1, refs.n do vals[i] = deepCopy(refs[i]) end
      local calls = rawget(self, "calls")
      calls[#calls + 1] = { vals = vals, refs = refs }
      local function record(...)
        local returnvals = rawget(self, "returnvals")
        returnvals[#returnvals + 1] = pack(...)
        return ...
      end
      return record(rawget(self, "callback")(...))
    end

    function spyMethods:revert()
      local target = rawget(self, "target_table")
      if target ~= nil then target[rawget(self, "target_key")] = rawget(self, "original") end
      return self
    end
    function spyMethods:clear()
      self.calls, self.returnvals = {}, {}
      return self
    end
    function spyMethods:returns(...)
      local values = pack(...)
      self.callback = function() return table.unpack(values, 1, values.n) end
      return self
    end
    function spyMethods:invokes(fn)
      self.callback = fn
      return self
    end

    local function newSpy(callback)
      if callback ~= nil and type(callback) ~= "function" and not (getmetatable(callback) or {}).__call then
        error(format("spy.new expects a function, got %s", type(callback)), 3)
      end
      return setmetatable({ calls = {}, returnvals = {}, callback = callback or function() end }, spyMT)
    end

    spy = setmetatable({}, { __call = function(_, callback) return newSpy(callback) end })
    function spy.new(callback) return newSpy(callback) end
    spy.is_spy = isSpy
    function spy.on(target, key)
      if type(target) ~= "table" then error(format("bad argument #1 to 'spy.on' (table expected, got %s)", type(target)), 2) end
      local original = target[key]
      local s = newSpy(original)
      s.target_table, s.target_key, s.original = target, key, original
      target[key] = s
      return s
    end

    local function newStub(target, key, ...)
      local s = newSpy()
      s:returns(...)
      if target ~= nil then
        if type(target) ~= "table" then error(format("bad argument #1 to 'stub' (table expected, got %s)", type(target)), 3) end
        s.target_table, s.target_key, s.original = target, key, target[key]
        target[key] = s
      end
      return s
    end
    stub = setmetatable({}, { __call = function(_, ...) return newStub(...) end })
    function stub.new(...) return newStub(...) end
    function stub.is_stub(value) return spy.is_spy(value) end

    -- match._ (anything), match.is_string(), match.is_not_nil(), match.is_same(x), match.matches(p)...
    local matcherMT = { __tostring = function(m) return rawget(m, "label") end }
    local function matcher(test, label) return setmetatable({ [MATCHER] = test, label = label }, matcherMT) end
    local matcherNames = {
      ["true"] = true, ["false"] = true, ["nil"] = true, boolean = true, number = true, string = true,
      table = true, ["function"] = true, userdata = true, thread = true, truthy = true, falsy = true,
      same = true, equals = true, equal = true, near = true, matches = true, match = true, ref = true,
    }
    match = setmetatable({ _ = matcher(function() return true end, "match._") }, {
      __index = function(_, key)
        if type(key) ~= "string" then return nil end
        local words, unknown = parse(key, matcherNames)
        local negated, name = false, nil
        if not words then error(format("luassert: unknown matcher: '%s'", unknown), 2) end
        for _, word in next, words do
          if modifiers[word] == "not" then negated = not negated elseif modifiers[word] == nil then name = word end
        end
        if name == nil then error(format("luassert: '%s' names no matcher", key), 2) end
        return function(...)
          local expected = pack(...)
          return matcher(function(value)
            local holds
            if name == "ref" then holds = rawequal(value, expected[1])
            elseif name == "matches" or name == "match" or name == "same" or name == "equals" or name == "equal" then
              holds = assertions[name].test({ n = 2, expected[1], value }, {})
            elseif name == "near" then
              holds = type(value) == "number" and abs(expected[1] - value) <= expected[2]
            else
              holds = assertions[name].test({ n = 1, value }, {})
            end
            return holds ~= negated
          end, "match." .. key .. "(" .. (expected.n > 0 and render(expected[1]) or "") .. ")")
        end
      end,
    })
    """#
}
