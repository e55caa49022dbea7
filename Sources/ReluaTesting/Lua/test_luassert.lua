local render, diffTables, sameValues = ...
local type, next, rawget, rawequal, getmetatable, setmetatable, tostring, pcall, error, select =
  type, next, rawget, rawequal, getmetatable, setmetatable, tostring, pcall, error, select
local format, lower, concat, mathtype, unpack, max =
  string.format, string.lower, table.concat, math.type, table.unpack, math.max

local function callable(value)
  if type(value) == "function" then return true end
  local mt = getmetatable(value)
  return type(mt) == "table" and rawget(mt, "__call") ~= nil
end
local function hasToString(value)
  local mt = getmetatable(value)
  return type(value) == "string" or (type(mt) == "table" and rawget(mt, "__tostring") ~= nil)
end

-- Matchers (`match._`, `match.is_string()`) carry their test under this key.
local MATCHER = {}
-- The payload of a chain after `array(t)` (luassert's array modifier) carries this key.
local ARRAY = {}

-- luassert's state levels (assert:snapshot()): each holds the formatters added, the parameters
-- set and the spies made since it was taken, and its revert() undoes them and the newer levels'.
-- The base level is the test's own (a test's state is fresh: nothing outlives it anyway).
local NOTHING = {}  -- a parameter set to nil, hiding an older level's value
local parameterDefaults = { TableFormatLevel = 3, TableErrorHighlightCharacter = "*", TableErrorHighlightColor = "none" }
local baseLevel = { formatters = {}, parameters = {}, spies = {} }
local currentLevel = baseLevel
local levelMethods = {}
function levelMethods:revert()
  local newer = rawget(self, "next")
  if newer ~= nil then newer:revert() end
  for i = #self.spies, 1, -1 do self.spies[i]:revert() end
  local previous = self.previous
  if previous ~= nil then
    previous.next = nil
    currentLevel = previous
  end
end
local levelMT = { __index = levelMethods }
local function snapshot()
  local level = setmetatable({ previous = currentLevel, formatters = {}, parameters = {}, spies = {} }, levelMT)
  currentLevel.next = level
  currentLevel = level
  return level
end
-- Formatters from assert:add_formatter, the newest level's first and in each the latest first:
-- each gets a value (and its fmtargs entry) and returns its text, or nil to leave it to the next
-- one and then to relua's.
local function eachFormatter()
  local level, i = currentLevel, 0
  return function()
    while level ~= nil do
      i = i + 1
      local formatter = level.formatters[i]
      if formatter ~= nil then return formatter end
      level, i = level.previous, 0
    end
  end
end
-- Numbers as luassert shows them: NaN, Inf, -Inf, else with 20 significant digits (`%.20g`), a
-- float that looks like an integer with `.0`.
local function numberText(value)
  if value ~= value then return "NaN" end
  if value == math.huge then return "Inf" end
  if value == -math.huge then return "-Inf" end
  local text = format("%.20g", value)
  if mathtype(value) == "float" and not text:find("[%.,]") then text = text:gsub("%d+", "%0.0", 1) end
  return text
end

-- Values as luassert shows them: `(number) 3`, `(string) 'text'`, `(nil)`; tables and the rest
-- as `expect` prints them (`render`, from LuaTestAssertions: one line, cut by the same rule).
-- luassert.util.make_arglist's lists: shown as `(values list) ((string) 'a', (nil))`.
local ARGLIST = {}
local function show(value, fmtarg)
  for formatter in eachFormatter() do
    local text = formatter(value, fmtarg)
    if text ~= nil then return tostring(text) end
  end
  local t = type(value)
  if t == "table" and rawget(value, MATCHER) ~= nil then return "(matcher) " .. tostring(rawget(value, "label")) end
  if t == "table" and getmetatable(value) == ARGLIST then
    local parts = {}
    for i = 1, value.n or #value do parts[i] = show(value[i]) end
    return "(values list) (" .. concat(parts, ", ") .. ")"
  end
  if t == "nil" then return "(nil)" end
  if t == "string" then return "(string) '" .. value .. "'" end
  if t == "number" then return "(number) " .. numberText(value) end
  if t == "boolean" then return "(boolean) " .. tostring(value) end
  if t == "userdata" or t == "thread" then return "(" .. t .. ") '" .. tostring(value) .. "'" end
  if t == "function" then
    -- luassert's: where it was defined, when the state has the debug library (trusted).
    local debugLibrary = rawget(_G, "debug")
    local info = debugLibrary and debugLibrary.getinfo and debugLibrary.getinfo(value, "S")
    if info then return format("%s @ line %s in %s", tostring(value), tostring(info.linedefined), tostring(info.source)) end
    return tostring(value)
  end
  return "(" .. t .. ") " .. render(value)
end
local function showList(list)
  if list == nil then return "(nil)" end  -- never called (luassert's word)
  local parts = {}
  for i = 1, list.n do parts[i] = render(list[i]) end
  return "(" .. concat(parts, ", ") .. ")"
end
-- A custom message (the argument after an assertion's own, or assert.message(m)) as text:
-- strings, numbers and values with __tostring as tostring gives them, the rest as `show`.
local function messageText(value)
  local t = type(value)
  if t == "string" or t == "number" then return tostring(value) end
  local mt = getmetatable(value)
  if type(mt) == "table" and rawget(mt, "__tostring") ~= nil then return tostring(value) end
  return show(value)
end

-- say: luassert's store of messages, by namespace with a fallback (both "en" at first).
-- `say:set(key, text)`; `say(key, vars)` is the text formatted with the vars (nil when the key
-- has none). Registered assertions name their messages by key; relua's own are not in it.
local sayRegistry = { en = {} }
local sayCurrent, sayFallback = "en", "en"
local say = setmetatable({
  set_namespace = function(_, namespace)
    sayCurrent = namespace
    sayRegistry[namespace] = sayRegistry[namespace] or {}
  end,
  set_fallback = function(_, namespace)
    sayFallback = namespace
    sayRegistry[namespace] = sayRegistry[namespace] or {}
  end,
  set = function(_, key, value) sayRegistry[sayCurrent][key] = value end,
  _registry = sayRegistry,
}, {
  __call = function(_, key, vars)
    if vars ~= nil and type(vars) ~= "table" then
      error(format("expected parameter table to be a table, got '%s'", type(vars)), 2)
    end
    if key == nil then return nil end
    local text = sayRegistry[sayCurrent][key]
    if text == nil then text = sayRegistry[sayFallback][key] end
    if text == nil then return nil end
    text = tostring(text)
    vars = vars or {}
    local n = max(vars.n or 0, #vars)
    if n == 0 then return text end
    local strings = {}
    for i = 1, n do strings[i] = tostring(vars[i]) end
    return text:format(unpack(strings, 1, n))
  end,
  __index = function(_, namespace) return sayRegistry[namespace] end,
})

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
  for i = 1, max(actual.n, expected.n) do
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

-- The assertions: `test(args, run)` says whether it holds; `positive`/`negative` word the
-- failure; `message` is the position of the optional custom message (or a function of the
-- arguments giving it); `run.returns`, set by `test`, is what a passing assertion returns
-- (else its arguments). assert:register adds assertions of another shape (`callback`).
local assertions = {}
-- luassert's check of an assertion's argument count (level: that of the assertion's caller).
local function atLeast(name, count, a, level)
  if a.n < count then
    error(format("the '%s' function requires a minimum of %d arguments, got: %d", name, count, a.n), level + 1)
  end
end
local function same(args)
  atLeast("same", 2, args, 3)
  return deepEqual(args[1], args[2])
end
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
  message = 3,
  test = function(a)
    atLeast("equals", 2, a, 3)
    return a[1] == a[2]
  end,
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
-- near(expected, actual, tolerance): numbers, or values tonumber reads (`'1.5'`).
local function nearNumbers(a)
  atLeast("near", 3, a, 4)
  local numbers = {}
  for i = 1, 3 do
    numbers[i] = tonumber(a[i])
    if numbers[i] == nil then
      error(format("bad argument #%d to 'near' (number or object convertible to a number expected, got %s)",
        i, show(a[i])), 4)
    end
  end
  return numbers[1], numbers[2], numbers[3]
end
assertions.near = {
  message = 4,
  test = function(a)
    local expected, actual, tolerance = nearNumbers(a)
    return actual >= expected - tolerance and actual <= expected + tolerance
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
-- unique(list[, deep][, message]) as luassert reads its arguments: no two values `==` (with
-- deep, none `same`).
local function uniqueDeep(a)
  if type(a[2]) == "boolean" or (a[2] == nil and a.n > 2) then return a[2], a[3] end
  return type(a[3]) == "boolean" and a[3] or nil, a[2]
end
assertions.unique = {
  message = function(a) return select(2, uniqueDeep(a)) end,
  test = function(a)
    if type(a[1]) ~= "table" then
      error(format("bad argument #1 to 'unique' (table expected, got %s)", type(a[1])), 3)
    end
    local deep = uniqueDeep(a)
    for k, v in next, a[1] do
      for k2, v2 in next, a[1] do
        if k ~= k2 and (v == v2 or (deep and deepEqual(v, v2))) then return false end
      end
    end
    return true
  end,
  positive = function(a) return "Expected object to be unique:\n" .. show(a[1]) end,
  negative = function(a) return "Expected object to not be unique:\n" .. show(a[1]) end,
}
-- The custom message of matches and error_matches: the first argument from the third on that is
-- neither a boolean nor a number (nor text tonumber reads), as luassert picks it; the rest are
-- init and plain.
local function laterMessage(a)
  for i = 3, a.n do
    local v = a[i]
    if v and type(v) ~= "boolean" and not tonumber(v) then return v, i end
  end
end
local function initAndPlain(a, name)
  local options, count = {}, 0
  local _, skipped = laterMessage(a)
  for i = 3, a.n do
    if i ~= skipped then count = count + 1 options[count] = a[i] end
  end
  if options[1] ~= nil and tonumber(options[1]) == nil then
    error(format("bad argument #%d to '%s' (number expected, got %s)", skipped == 3 and 4 or 3, name, type(options[1])), 4)
  end
  return tonumber(options[1]), options[2]
end
-- matches(pattern, s[, init[, plain]][, message]): `s` (a number or a value with __tostring made
-- text) matches; a passing one returns the captures (with plain, the pattern).
local function stringMatch(text, pattern, init, plainFind, run)
  if plainFind then
    local found = text:find(pattern, init, true) ~= nil
    run.returns = found and { n = 1, pattern } or { n = 0 }
    return found
  end
  local captures = pack(text:match(pattern, init))
  run.returns = captures[1] ~= nil and captures or { n = 0 }
  return captures[1] ~= nil
end
assertions.matches = {
  message = laterMessage,
  test = function(a, run)
    atLeast("matches", 2, a, 3)
    if type(a[1]) ~= "string" then
      error(format("bad argument #1 to 'matches' (string expected, got %s)", type(a[1])), 3)
    end
    local s = a[2]
    if type(s) == "number" or hasToString(s) then s = tostring(s) end
    if type(s) ~= "string" then
      error(format("bad argument #2 to 'matches' (string or object convertible to a string expected, got %s)",
        show(a[2])), 3)
    end
    local init, plainFind = initAndPlain(a, "matches")
    return stringMatch(s, a[1], init, plainFind, run)
  end,
  positive = function(a) return format("Expected strings to match.\nPassed in:\n%s\nExpected:\n%s", show(a[2]), show(a[1])) end,
  negative = function(a) return format("Expected strings not to match.\nPassed in:\n%s\nDid not expect:\n%s", show(a[2]), show(a[1])) end,
}
assertions.match = assertions.matches

-- has_error(fn[, expected]): a string error is compared without its `file:line: ` prefix. A
-- passing one returns what luassert's does: the error (a string without that prefix) or, when fn
-- raised none, what it returned first; then the other arguments.
local function caught(a, name)
  if not callable(a[1]) then
    error(format("bad argument #1 to '%s' (function expected, got %s)", name, type(a[1])), 4)
  end
  local ok, value = pcall(a[1])
  if type(value) == "string" then value = value:gsub("^.-:%d+: ", "", 1) end
  return not ok, value
end
-- What the messages show as caught: `(no error)` when fn raised none and an error was expected.
local function caughtText(a, run)
  if not run.raised and a[2] ~= nil then return "(no error)" end
  return show(run.caught)
end
assertions.error = {
  message = 3,
  test = function(a, run)
    local raised, err = caught(a, "error")
    run.raised, run.caught = raised, raised and err or nil
    run.returns = { n = max(a.n, 1), err, select(2, unpack(a, 1, a.n)) }
    if not raised or a[2] == nil then return raised end
    local expected = a[2]
    if type(expected) == "string" then
      if hasToString(err) then
        err = tostring(err)
        run.returns[1] = err
      end
      if type(err) == "string" then return expected == err end
    elseif type(expected) == "number" and type(err) == "string" then
      return tostring(expected) == tostring(tonumber(err))
    end
    return deepEqual(expected, err)
  end,
  positive = function(a, run)
    return format("Expected a different error.\nCaught:\n%s\nExpected:\n%s", caughtText(a, run),
      a[2] == nil and "(any error)" or show(a[2]))
  end,
  negative = function(_, run) return "Expected no error, but caught:\n" .. show(run.caught) end,
}
assertions.errors = assertions.error
-- error_matches(fn, pattern[, init[, plain]][, message]): the error's text (a number, boolean or
-- value with __tostring made text), without its `file:line: ` prefix, matches; no error and no
-- pattern match too. A passing one returns the captures; else the error, then the arguments.
assertions.error_matches = {
  message = laterMessage,
  test = function(a, run)
    atLeast("error_matches", 2, a, 3)
    if not callable(a[1]) then
      error(format("bad argument #1 to 'error_matches' (function expected, got %s)", type(a[1])), 3)
    end
    if a[2] ~= nil and type(a[2]) ~= "string" then
      error(format("bad argument #2 to 'error_matches' (string expected, got %s)", type(a[2])), 3)
    end
    local init, plainFind = initAndPlain(a, "error_matches")
    local raised, err = caught(a, "error_matches")
    run.raised, run.caught = raised, raised and err or nil
    local rest = { n = a.n }
    for i = 2, a.n do rest[i] = a[i] end
    rest[1] = err
    run.returns = rest
    if not raised then return false end
    if err == nil and a[2] == nil then
      run.returns = { n = 0 }
      return true
    end
    if type(err) == "number" or type(err) == "boolean" or hasToString(err) then
      err = tostring(err)
      rest[1] = err
    end
    if type(err) ~= "string" or a[2] == nil then return false end
    local matched = {}
    if stringMatch(err, a[2], init, plainFind, matched) then
      run.returns = matched.returns
      return true
    end
    return false
  end,
  positive = function(a, run)
    return format("Expected a different error.\nCaught:\n%s\nExpected:\n%s", caughtText(a, run), show(a[2]))
  end,
  negative = function(a, run)
    return format("Expected the error not to match.\nCaught:\n%s\nDid not expect:\n%s", show(run.caught), show(a[2]))
  end,
}
-- holes([length]) after array(t): some index from 1 to length (the largest integer key when not
-- given) holds nil; a passing one returns the first such index.
local function firstHole(a, run)
  local payload = run.payload
  if type(payload) ~= "table" or not rawget(payload, ARRAY) then
    error("No array set, please use the array modifier to set the array to validate", 4)
  end
  local array, length = payload.array, a[1]
  if length == nil then
    length = 0
    for i in next, array do
      if mathtype(i) == "integer" and i > length then length = i end
    end
  end
  if type(length) ~= "number" then
    error("expected array length to be of type 'number', got: " .. tostring(length), 4)
  end
  for i = 1, length do
    if array[i] == nil then return i end
  end
end
assertions.holes = {
  test = function(a, run)
    local missing = firstHole(a, run)
    run.missing = missing
    run.returns = { n = 1, missing }
    return missing ~= nil
  end,
  positive = function() return "Expected array to have holes, but none was found." end,
  negative = function(_, run) return "Expected array to not have holes, hole found at position: " .. show(run.missing) end,
}
-- returned_arguments(n, ...): the values after n are n in number (`select("#", ...)`).
assertions.returned_arguments = {
  test = function(a) return tostring(a[1]) == tostring(a.n - 1) end,
  positive = function(a)
    return format("Expected to be called with %s argument(s), but was called with %s", tostring(a[1]), tostring(a.n - 1))
  end,
  negative = function(a)
    return format("Expected not to be called with %s argument(s), but was called with %s", tostring(a[1]), tostring(a.n - 1))
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

-- called_with/returned_with: `positive` and `negative` are the failure's first two lines
-- (luassert's), then come the last call's values and the arguments.
local function withAssertion(name, list, field, positive, negative)
  local function message(lines, expectedLabel, a, st)
    local records = spyOf(st, name)[list]
    local last = records[#records]
    return format("%s\n%s\n%s\n%s", lines, showList(last and (last[field] or last)), expectedLabel, showList(a))
  end
  assertions[name] = {
    test = function(a, st)
      for _, record in next, spyOf(st, name)[list] do
        if matchArgs(record[field] or record, a, record.refs) then return true end
      end
      return false
    end,
    positive = function(a, st) return message(positive, "Expected:", a, st) end,
    negative = function(a, st) return message(negative, "Did not expect:", a, st) end,
  }
end
withAssertion("called_with", "calls", "vals",
  "Function was never called with matching arguments.\nCalled with (last call if any):",
  "Function was called with matching arguments at least once.\nCalled with (last call if any):")
withAssertion("returned_with", "returnvals", nil,
  "Function never returned matching arguments.\nReturned (last call if any):",
  "Function returned matching arguments at least once.\nReturned (last matching call):")

-- Chains: `assert.is_not.same`, `assert.has_no.errors`, `assert.spy(s).was_not.called()`.
-- A key splits at `_` into modifiers (is, are, was, has, does: no-ops; not, no: negate; and the
-- ones registered, `message` among them) and one assertion (longest match first, so
-- `error_matches` is one name); case does not matter.
local modifiers = { is = "", are = "", was = "", has = "", does = "", ["not"] = "not", no = "not" }
-- Modifiers with a callback (assert:register("modifier", …)): `callback(state, arguments,
-- level)` when the chain is called with arguments (`assert.message("why")`), `callback(state)`
-- before the assertion otherwise; `state.mod` (false when negated), `payload`, `failure_message`.
local customModifiers = {}
customModifiers.message = function(state, arguments)
  if arguments then state.failure_message = arguments[1] end
end
-- luassert's array modifier: `assert.array(t).has.no.holes()` (the array is the chain's payload).
customModifiers.array = function(state, arguments, level)
  if arguments == nil then return end
  if arguments.n == 0 then error("No array provided to the array-modifier", level + 1) end
  local payload = rawget(state, "payload")
  if type(payload) == "table" and rawget(payload, ARRAY) then error("Array already set", level + 1) end
  state.payload = { [ARRAY] = true, array = arguments[1] }
end
local customMatchers = {}
local spyAssertions = { spy = true, stub = true }

local function tokensOf(key, into)
  local tokens = { unpack(into or {}) }
  for token in lower(key):gmatch("[^_]+") do tokens[#tokens + 1] = token end
  return tokens
end
-- The words of a chain's tokens, read from the right, the longest known name first; nil when a
-- token is no word (`was.called.at_least` is the tokens was, called, at, least: `called_at_least`).
local function parse(tokens, known)
  local words, i = {}, #tokens
  while i > 0 do
    local found
    for j = 1, i do
      local candidate = concat(tokens, "_", j, i)
      if modifiers[candidate] or known[candidate] then found = j break end
    end
    if not found then return nil end
    table.insert(words, 1, concat(tokens, "_", found, i))
    i = found - 1
  end
  return words
end
-- Whether tokens that do not parse yet may still begin a longer name (`called.at` before
-- `.least`): the tokens before some point parse, and those after it begin a known name.
local function pending(tokens, known, names)
  for k = #tokens, 1, -1 do
    local head = { unpack(tokens, 1, k - 1) }
    if parse(head, known) then
      local tail = concat(tokens, "_", k) .. "_"
      for _, list in next, names do
        for name in next, list do
          if type(name) == "string" and name:sub(1, #tail) == tail then return true end
        end
      end
    end
  end
  return false
end

local spyMethods = {}
local spyMT = { __index = spyMethods }
local function isSpy(value) return type(value) == "table" and getmetatable(value) == spyMT end

-- A string key, so that a copy of a chain (penlight's tablex.deepcopy) is `same` as it.
local STATE = "__luassert_chain"
local chainMT = {}
local function chain(st) return setmetatable({ [STATE] = st }, chainMT) end

local knownAssertions = setmetatable({}, {
  __index = function(_, k) return assertions[k] or spyAssertions[k] or customModifiers[k] end,
})

-- What a registered callback sees and changes of the chain: luassert's state.
local function stateOf(st)
  return { mod = not st.negated, payload = st.payload, failure_message = st.failure_message, tokens = {} }
end
local function fromState(state, name)
  return {
    negated = not state.mod, name = name, payload = rawget(state, "payload"),
    failure_message = rawget(state, "failure_message"), mods = {},
  }
end

local rootMethods = {}

local function chainNames() return { assertions, customModifiers, modifiers, spyAssertions } end
-- The chain's words: negation, the assertion's name and the registered modifiers met, from the
-- tokens read since the chain last took arguments.
local function resolve(st, words)
  local negated, name, mods = st.negated, nil, { unpack(st.mods or {}) }
  for _, word in next, words do
    if modifiers[word] == "not" then negated = not negated
    elseif modifiers[word] == nil then
      if customModifiers[word] and not assertions[word] and not spyAssertions[word] then
        mods[#mods + 1] = customModifiers[word]
      else
        if name ~= nil then error(format("luassert: '%s' follows the assertion '%s'", word, name), 3) end
        name = word
      end
    end
  end
  return negated, name, mods
end

function chainMT.__index(self, key)
  if type(key) ~= "string" then return nil end
  local st = rawget(self, STATE)
  if st.root and rootMethods[key] then return rootMethods[key] end
  local tokens = tokensOf(key, st.tokens)
  local words = parse(tokens, knownAssertions)
  if not words and not pending(tokens, knownAssertions, chainNames()) then
    error(format("luassert: unknown modifier/assertion: '%s'", key), 2)
  end
  if words then resolve(st, words) end
  return chain({ negated = st.negated, payload = st.payload, failure_message = st.failure_message,
    mods = st.mods, tokens = tokens })
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
  local words = parse(st.tokens or {}, knownAssertions)
  if not words then
    error(format("luassert: unknown modifier/assertion: '%s'", concat(st.tokens, "_")), 2)
  end
  local negated, name, mods = resolve(st, words)
  st = { negated = negated, payload = st.payload, failure_message = st.failure_message, mods = mods }
  if name == nil then
    -- Only modifiers, given arguments (`assert.message("why")`): they act now, the chain goes on.
    if #mods == 0 then error("luassert: the chain names no assertion", 2) end
    local state = stateOf(st)
    local arguments = pack(...)
    for _, modifier in next, mods do modifier(state, arguments, 2) end
    return chain(fromState(state))
  end
  if #mods > 0 then
    local state = stateOf(st)
    for _, modifier in next, mods do modifier(state) end
    st = fromState(state, name)
  end
  if spyAssertions[name] then
    local s, message = ...
    if not isSpy(s) then error(format("assert.%s expects a spy or a stub, got %s", name, show(s)), 2) end
    return chain({ negated = st.negated, payload = s, failure_message = message or st.failure_message, mods = {} })
  end
  local assertion = assertions[name]
  local args = pack(...)
  if assertion.callback then
    -- Registered with assert:register: luassert's protocol, messages from say.
    local state = stateOf(st)
    local holds, returns = assertion.callback(state, args, 2)
    if (not holds) == state.mod then
      local text = say(state.mod and assertion.positive_message or assertion.negative_message, rootMethods.format(nil, args))
      local custom = rawget(state, "failure_message")
      if custom ~= nil then custom = messageText(custom) end
      if text ~= nil and custom ~= nil then text = custom .. "\n" .. text end
      error(text or custom or "assertion failed!", 2)
    end
    if returns then return unpack(returns, 1, returns.n or #returns) end
    return ...
  end
  local run = { negated = st.negated, payload = st.payload }
  if (not assertion.test(args, run)) == (not st.negated) then
    local text
    if st.negated then text = assertion.negative(args, run) else text = assertion.positive(args, run) end
    local custom
    if type(assertion.message) == "function" then custom = assertion.message(args)
    elseif assertion.message then custom = args[assertion.message] end
    if custom == nil then custom = st.failure_message end
    -- luassert puts a custom message first, on a line of its own, before its own text.
    if custom ~= nil then text = messageText(custom) .. "\n" .. text end
    error(text, 2)
  end
  if run.returns then return unpack(run.returns, 1, run.returns.n) end
  return ...
end

assert = chain({ root = true })

-- luassert's extension API, on `assert` itself: assert:register / unregister (assertions,
-- modifiers, matchers), assert:format(args), formatters, parameters.
local namespaces = { assertion = true, modifier = true, matcher = true }
local function checkNamespace(namespace, what)
  if not namespaces[namespace] then
    error(format("luassert: assert:%s: no namespace '%s' (relua test has assertion, modifier and matcher)",
      what, tostring(namespace)), 3)
  end
end
function rootMethods.register(_, namespace, name, callback, positive, negative)
  checkNamespace(namespace, "register")
  if type(name) ~= "string" then error(format("bad argument #2 to 'register' (string expected, got %s)", type(name)), 2) end
  if not callable(callback) then
    error(format("bad argument #3 to 'register' (function expected, got %s)", type(callback)), 2)
  end
  local key = lower(name)
  if namespace == "assertion" then
    assertions[key] = { callback = callback, positive_message = positive, negative_message = negative }
  elseif namespace == "modifier" then
    customModifiers[key] = callback
  else
    customMatchers[key] = callback
  end
end
function rootMethods.unregister(_, namespace, name)
  checkNamespace(namespace, "unregister")
  local key = lower(name)
  if namespace == "assertion" then assertions[key] = nil
  elseif namespace == "modifier" then customModifiers[key] = nil
  else customMatchers[key] = nil end
end
-- Each argument up to args.n as the messages show it, but those args.nofmt names.
function rootMethods.format(_, args)
  local nofmt, fmtargs = args.nofmt or {}, args.fmtargs or {}
  for i = 1, args.n or #args do
    if not nofmt[i] then args[i] = show(args[i], fmtargs[i]) end
  end
  return args
end
function rootMethods.add_formatter(_, formatter)
  if not callable(formatter) then
    error(format("bad argument #1 to 'add_formatter' (function expected, got %s)", type(formatter)), 2)
  end
  table.insert(currentLevel.formatters, 1, formatter)
end
function rootMethods.remove_formatter(_, formatter)
  local level = currentLevel
  while level ~= nil do
    for i = 1, #level.formatters do
      if rawequal(level.formatters[i], formatter) then table.remove(level.formatters, i) return end
    end
    level = level.previous
  end
end
-- Kept and given back, by level; relua's printer does not read them (it prints tables its own way).
function rootMethods.set_parameter(_, name, value)
  if value == nil then value = NOTHING end
  currentLevel.parameters[name] = value
end
function rootMethods.get_parameter(_, name)
  local level = currentLevel
  while level ~= nil do
    local value = level.parameters[name]
    if value == NOTHING then return nil end
    if value ~= nil then return value end
    level = level.previous
  end
  return parameterDefaults[name]
end
function rootMethods.snapshot() return snapshot() end
-- assert:level(n) marks an error level for assert's messages; get_level reads it back (nil for
-- anything else). relua raises at the test's line whatever the level.
local LEVEL = {}
function rootMethods.level(_, level) return setmetatable({ level = level }, LEVEL) end
function rootMethods.get_level(_, value)
  if type(value) == "table" and getmetatable(value) == LEVEL then return value.level end
  return nil
end

-- spy.new(fn), spy.on(t, "name"), stub(t, "name"[, returns...]), stub.new(...).

local function deepCopy(value, seen)
  -- A spy (a spy called with itself) is kept as is: its record would hold itself.
  if type(value) ~= "table" or getmetatable(value) == spyMT then return value end
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
    -- As the values were when returned (luassert's): a table changed later does not match.
    local returnvals = rawget(self, "returnvals")
    local values = pack(...)
    for i = 1, values.n do values[i] = deepCopy(values[i]) end
    returnvals[#returnvals + 1] = values
    return ...
  end
  return record(rawget(self, "callback")(...))
end

-- Puts the spied field back, and returns what the spy stood for (luassert's): the field's
-- original value, a spy.new's function, nil for a blank stub.
function spyMethods:revert()
  local target = rawget(self, "target_table")
  if target ~= nil then target[rawget(self, "target_key")] = rawget(self, "original") end
  return rawget(self, "original")
end
-- luassert's spy methods: s:called([n[, compare]]) and s:called_with(args) /
-- s:returned_with(args) (args a list, counted by `n` when it has one) say whether it holds, then
-- the count, or the matching (else the last) call's values.
function spyMethods:called(times, compare)
  local count = #rawget(self, "calls")
  if times == nil and compare == nil then return count > 0, count end
  compare = compare or function(actual, expected) return actual == expected end
  return compare(count, times), count
end
local function matchingRecord(records, field, args)
  local expected = { n = args.n or #args, unpack(args, 1, args.n or #args) }
  for _, record in next, records do
    local values = field and record[field] or record
    if matchArgs(values, expected, record.refs) then return true, values end
  end
  local last = records[#records]
  return false, last and (field and last[field] or last)
end
function spyMethods:called_with(args) return matchingRecord(rawget(self, "calls"), "vals", args) end
function spyMethods:returned_with(args) return matchingRecord(rawget(self, "returnvals"), nil, args) end
function spyMethods:clear()
  self.calls, self.returnvals = {}, {}
  return self
end
function spyMethods:returns(...)
  local values = pack(...)
  self.callback = function() return unpack(values, 1, values.n) end
  return self
end
function spyMethods:invokes(fn)
  self.callback = fn
  return self
end

local function newSpy(callback)
  if callback ~= nil and not callable(callback) then
    error(format("spy.new expects a function, got %s", type(callback)), 3)
  end
  return setmetatable({ calls = {}, returnvals = {}, callback = callback or function() end, original = callback }, spyMT)
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
  local spies = currentLevel.spies
  spies[#spies + 1] = s
  return s
end

-- A stub answers with what it was given — values, or the one function given, which it calls —
-- and, first, with what `s.on_call_with(args…).returns(…)`/`.invokes(fn)` set for calls
-- matching args (matchers allowed; the first set that matches). `returns`, `invokes`,
-- `on_call_with` and `by_default` take luassert's dot calls and relua's method calls alike.
local function newStub(target, key, ...)
  local s = newSpy()
  local byDefault
  local onCalls = {}
  local function withoutSelf(owner, first, ...)
    if rawequal(first, owner) then return ... end
    return first, ...
  end
  local function returns(...)
    local values = pack(withoutSelf(s, ...))
    byDefault = function() return unpack(values, 1, values.n) end
    return s
  end
  local function invokes(...)
    local fn = withoutSelf(s, ...)
    if not callable(fn) then error(format("bad argument #1 to 'invokes' (function expected, got %s)", type(fn)), 2) end
    byDefault = fn
    return s
  end
  s.callback = function(...)
    local arguments = pack(...)
    for _, onCall in next, onCalls do
      if matchArgs(arguments, onCall.args) then return onCall.answer(...) end
    end
    return byDefault(...)
  end
  s.returns, s.invokes = returns, invokes
  s.by_default = { returns = returns, invokes = invokes }
  function s.on_call_with(...)
    local expected = pack(withoutSelf(s, ...))
    for i = 1, expected.n do
      if not isMatcher(expected[i]) then expected[i] = deepCopy(expected[i]) end
    end
    local answers = {}
    function answers.returns(...)
      local values = pack(withoutSelf(answers, ...))
      onCalls[#onCalls + 1] = { args = expected, answer = function() return unpack(values, 1, values.n) end }
      return s
    end
    function answers.invokes(...)
      local fn = withoutSelf(answers, ...)
      onCalls[#onCalls + 1] = { args = expected, answer = fn }
      return s
    end
    return answers
  end
  if select("#", ...) == 1 and callable((...)) then invokes((...)) else returns(...) end
  s.original = nil
  if target ~= nil then
    if type(target) ~= "table" then error(format("bad argument #1 to 'stub' (table expected, got %s)", type(target)), 3) end
    local original = target[key]
    if original ~= nil and not callable(original) then
      error(format("bad argument #2 to 'stub' (the field '%s' is a %s, not a function)", tostring(key), type(original)), 3)
    end
    s.target_table, s.target_key, s.original = target, key, original
    target[key] = s
    local spies = currentLevel.spies
    spies[#spies + 1] = s
  end
  return s
end
stub = setmetatable({}, { __call = function(_, ...) return newStub(...) end })
function stub.new(...) return newStub(...) end
function stub.is_stub(value) return spy.is_spy(value) end

-- mock(t[, dostub[, fn]]): every function in t, and in the tables it holds, becomes a spy on
-- it (dostub: a stub returning fn's answer, or nothing); mock.clear/mock.revert walk it again.
local function mockNew(object, dostub, func, parent, key)
  local visited = {}
  local function walk(value, owner, field)
    local t = type(value)
    if t == "table" then
      if isSpy(value) or visited[value] then return value end
      visited[value] = true
      for k, v in next, value do value[k] = walk(v, value, k) end
      return value
    elseif t == "function" then
      if dostub then return newStub(owner, field, func) end
      if owner == nil then return newSpy(value) end
      return spy.on(owner, field)
    end
    return value
  end
  return walk(object, parent, key)
end
local function mockApply(object, action, seen)
  if type(object) ~= "table" then return nil end
  if isSpy(object) then return object[action](object) end
  if seen[object] then return object end
  seen[object] = true
  for _, v in next, object do mockApply(v, action, seen) end
  return object
end
mock = setmetatable({
  new = mockNew,
  clear = function(object) return mockApply(object, "clear", {}) end,
  revert = function(object) return mockApply(object, "revert", {}) end,
}, { __call = function(_, ...) return mockNew(...) end })

-- match._ (anything), match.is_string(), match.is_not_nil(), match.is_same(x), match.matches(p),
-- match.all_of/any_of/none_of(matchers…), and those registered with assert:register.
local matcherMT = {
  __tostring = function(m) return rawget(m, "label") end,
  __call = function(m, value) return rawget(m, MATCHER)(value) end,
}
local function matcher(test, label) return setmetatable({ [MATCHER] = test, label = label }, matcherMT) end
local matcherNames = {
  ["true"] = true, ["false"] = true, ["nil"] = true, boolean = true, number = true, string = true,
  table = true, ["function"] = true, userdata = true, thread = true, truthy = true, falsy = true,
  same = true, equals = true, equal = true, near = true, matches = true, match = true, ref = true,
  unique = true,
}
local function composite(name, combine)
  customMatchers[name] = function(_, arguments, level)
    if arguments.n == 0 then
      error(format("the '%s' function requires a minimum of 1 arguments, got: 0", name), level + 1)
    end
    for i = 1, arguments.n do
      if not isMatcher(arguments[i]) then
        error(format("bad argument #%d to '%s' (matcher expected, got %s)", i, name, type(arguments[i])), level + 1)
      end
    end
    return function(value) return combine(arguments, value) end
  end
end
composite("all_of", function(list, value)
  for i = 1, list.n do if not list[i](value) then return false end end
  return true
end)
composite("any_of", function(list, value)
  for i = 1, list.n do if list[i](value) then return true end end
  return false
end)
composite("none_of", function(list, value)
  for i = 1, list.n do if list[i](value) then return false end end
  return true
end)
local knownMatchers = setmetatable({}, { __index = function(_, k) return matcherNames[k] or customMatchers[k] end })
local function needs(name, count, arguments, level)
  if arguments.n < count then
    error(format("the '%s' function requires a minimum of %d arguments, got: %d", name, count, arguments.n), level + 1)
  end
end
local function number(name, index, value, level)
  local n = tonumber(value)
  if n == nil then
    error(format("bad argument #%d to '%s' (number or object convertible to a number expected, got %s)",
      index, name, show(value)), level + 1)
  end
  return n
end
local referenceTypes = { table = true, ["function"] = true, thread = true, userdata = true }
-- The test of a value for relua's own matchers, its arguments checked as luassert checks them.
local function builtinMatcher(name, expected, level)
  if name == "ref" then
    needs(name, 1, expected, level + 1)
    if not referenceTypes[type(expected[1])] then
      error(format("bad argument #1 to 'ref' (object expected, got %s)", type(expected[1])), level + 1)
    end
    return function(value) return rawequal(value, expected[1]) end
  elseif name == "same" or name == "equals" or name == "equal" then
    needs(name, 1, expected, level + 1)
    return function(value) return assertions[name].test({ n = 2, expected[1], value }, {}) end
  elseif name == "matches" or name == "match" then
    needs(name, 1, expected, level + 1)
    if type(expected[1]) ~= "string" then
      error(format("bad argument #1 to 'matches' (string expected, got %s)", type(expected[1])), level + 1)
    end
    if expected[2] ~= nil and tonumber(expected[2]) == nil then
      error(format("bad argument #2 to 'matches' (number expected, got %s)", type(expected[2])), level + 1)
    end
    return function(value)
      if type(value) ~= "string" and type(value) ~= "number" and not hasToString(value) then return false end
      return tostring(value):find(expected[1], tonumber(expected[2]), expected[3]) ~= nil
    end
  elseif name == "near" then
    needs(name, 2, expected, level + 1)
    local centre, tolerance = number(name, 1, expected[1], level + 1), number(name, 2, expected[2], level + 1)
    return function(value)
      value = tonumber(value)
      return value ~= nil and value >= centre - tolerance and value <= centre + tolerance
    end
  elseif name == "unique" then
    return function(value) return type(value) == "table" and assertions.unique.test({ n = 2, value, expected[1] }, {}) end
  end
  return function(value) return assertions[name].test({ n = 1, value }, {}) end
end

-- match.x, match.is.x, match.is_not.x, match.x.Not: the words read as `assert`'s are, and
-- resolved when the chain is called (as luassert does).
local matchChainMT = {}
local function matchChain(tokens) return setmetatable({ [STATE] = tokens }, matchChainMT) end
function matchChainMT.__index(self, key)
  if type(key) ~= "string" then return nil end
  return matchChain(tokensOf(key, rawget(self, STATE)))
end
function matchChainMT.__call(self, ...)
  local tokens = rawget(self, STATE)
  local words = parse(tokens, knownMatchers)
  if not words then error(format("luassert: unknown matcher: '%s'", concat(tokens, "_")), 2) end
  local negated, name = false, nil
  for _, word in next, words do
    if modifiers[word] == "not" then negated = not negated elseif modifiers[word] == nil then name = word end
  end
  if name == nil then error(format("luassert: '%s' names no matcher", concat(tokens, "_")), 2) end
  local expected = pack(...)
  local shown = {}
  for i = 1, expected.n do shown[i] = show(expected[i]) end
  -- As luassert's formatter shows it: `is.match((string) 'x')`, `no.string()`.
  local label = (negated and "no." or "is.") .. name .. "(" .. concat(shown, ", ") .. ")"
  local registered = customMatchers[name]
  if registered then
    -- luassert's protocol: callback(state, arguments, level) gives the test of a value.
    local state = { mod = not negated }
    local test = registered(state, expected, 2)
    return matcher(function(value) return test(value) == state.mod end, label)
  end
  local test = builtinMatcher(name, expected, 2)
  return matcher(function(value) return (not not test(value)) ~= negated end, label)
end

match = setmetatable({ _ = matcher(function() return true end, "_ *"), is_matcher = isMatcher }, {
  __index = function(_, key)
    if type(key) ~= "string" then return nil end
    return matchChain(tokensOf(key))
  end,
})

-- luassert.util: the helpers luassert's own specs and extensions use.
local util = { pack = pack, unpack = unpack, callable = callable }
function util.deepcompare(a, b) return deepEqual(a, b) end
function util.hastostring(value) return hasToString(value) end
function util.shallowcopy(t)
  if type(t) ~= "table" then return t end
  local copy = {}
  for k, v in next, t do copy[k] = v end
  return copy
end
function util.deepcopy(t) return deepCopy(t) end
function util.copyargs(args)
  local copy = { n = args.n }
  for i = 1, args.n or #args do copy[i] = deepCopy(args[i]) end
  return copy
end
function util.make_arglist(...) return setmetatable(pack(...), ARGLIST) end
function util.is_arglist(value) return getmetatable(value) == ARGLIST end
-- table.insert and table.remove on a list counted by its `n` (nils allowed).
function util.tinsert(t, ...)
  local n = t.n or #t
  local position, value = n + 1, ...
  if select("#", ...) > 1 then position, value = ... end
  for i = n, position, -1 do t[i + 1] = t[i] end
  t[position] = value
  t.n = n + 1
end
function util.tremove(t, position)
  local n = t.n or #t
  position = position or n
  local value = t[position]
  for i = position, n do t[i] = t[i + 1] end
  t.n = n > 0 and n - 1 or 0
  return value
end

-- For `require "luassert"`, `require "say"`… (LuaTestModules).
return { assert = assert, spy = spy, stub = stub, mock = mock, match = match, say = say, util = util }
