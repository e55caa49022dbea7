/// The assertion helpers of test files, besides Lua's own `assert`:
/// `assert_equal(actual, expected[, message])` and `expect(actual).to_be(expected)` (also
/// `to_equal`, `not_to_be`, `to_be_nil`, `to_be_truthy`, `to_contain(text)`, `to_match(pattern)`,
/// `to_error([text])`; `:` works as well as `.`).
///
/// Equality is deep for plain tables (raw contents, cycles allowed; tables with `__eq` use it) and
/// Lua's `==` otherwise, so `1 == 1.0`. Failures raise at the test's line (level 2 from the
/// caller) with a readable message: `expected 3, got 4`, tables rendered as `{1, 2, name = "x"}`.
enum LuaTestAssertions {
  static let chunkName = "=[relua assertions]"

  static let source = #"""
    local type, next, rawget, rawequal, getmetatable, tostring, pcall, error, ipairs =
      type, next, rawget, rawequal, getmetatable, tostring, pcall, error, ipairs
    local format, concat, sort, mathtype = string.format, table.concat, table.sort, math.type

    local function hasEq(value)
      local mt = getmetatable(value)
      return type(mt) == "table" and rawget(mt, "__eq") ~= nil
    end

    local function deepEqual(a, b, seen)
      if rawequal(a, b) then return true end
      if type(a) ~= "table" or type(b) ~= "table" or hasEq(a) or hasEq(b) then return a == b end
      local pairsSeen = seen[a]
      if pairsSeen == nil then pairsSeen = {} seen[a] = pairsSeen end
      if pairsSeen[b] then return true end  -- already being compared (a cycle)
      pairsSeen[b] = true
      for key, value in next, a do
        local other = rawget(b, key)
        if other == nil or not deepEqual(value, other, seen) then return false end
      end
      for key in next, b do
        if rawget(a, key) == nil then return false end
      end
      return true
    end

    local render

    local function keyOrder(x, y)
      local tx, ty = type(x), type(y)
      if tx ~= ty then return tx < ty end
      if tx == "number" or tx == "string" then return x < y end
      return tostring(x) < tostring(y)
    end

    local function renderTable(t, seen, depth)
      if seen[t] then return "<cycle>" end
      if depth > 4 then return "{...}" end
      seen[t] = true
      local parts, count = {}, 0
      while rawget(t, count + 1) ~= nil do
        count = count + 1
        parts[count] = render(rawget(t, count), seen, depth + 1)
      end
      local keys = {}
      for key in next, t do
        if not (mathtype(key) == "integer" and key >= 1 and key <= count) then keys[#keys + 1] = key end
      end
      sort(keys, keyOrder)
      for _, key in ipairs(keys) do
        local shown = type(key) == "string" and key:match("^[%a_][%w_]*$") and key or "[" .. render(key, seen, depth + 1) .. "]"
        parts[#parts + 1] = shown .. " = " .. render(rawget(t, key), seen, depth + 1)
      end
      seen[t] = nil
      return "{" .. concat(parts, ", ") .. "}"
    end

    function render(value, seen, depth)
      local kind = type(value)
      if kind == "string" then return (format("%q", value):gsub("\\\n", "\\n")) end
      if kind == "table" and not hasEq(value) and getmetatable(value) == nil then
        return renderTable(value, seen or {}, depth or 0)
      end
      local ok, text = pcall(tostring, value)
      return ok and text or "<" .. kind .. ">"
    end

    local function mismatch(actual, expected, message)
      local text = "expected " .. render(expected) .. ", got " .. render(actual)
      if message ~= nil then text = tostring(message) .. ": " .. text end
      return text
    end

    function assert_equal(actual, expected, message)
      if not deepEqual(actual, expected, {}) then error(mismatch(actual, expected, message), 2) end
      return actual
    end

    function expect(actual)
      local expectation = {}
      -- Each check raises at level 3: check -> method wrapper -> the test line.
      local function method(check)
        return function(first, ...)
          local result
          if rawequal(first, expectation) then result = check(...) else result = check(first, ...) end
          return result
        end
      end
      expectation.to_be = method(function(expected, message)
        if not deepEqual(actual, expected, {}) then error(mismatch(actual, expected, message), 3) end
        return expectation
      end)
      expectation.to_equal = expectation.to_be
      expectation.not_to_be = method(function(unexpected, message)
        if deepEqual(actual, unexpected, {}) then
          local text = "expected a value other than " .. render(unexpected)
          if message ~= nil then text = tostring(message) .. ": " .. text end
          error(text, 3)
        end
        return expectation
      end)
      expectation.to_be_nil = method(function()
        if actual ~= nil then error("expected nil, got " .. render(actual), 3) end
        return expectation
      end)
      expectation.to_be_truthy = method(function()
        if not actual then error("expected a truthy value, got " .. render(actual), 3) end
        return expectation
      end)
      expectation.to_contain = method(function(text)
        if type(actual) ~= "string" or not actual:find(text, 1, true) then
          error("expected text containing " .. render(text) .. ", got " .. render(actual), 3)
        end
        return expectation
      end)
      expectation.to_match = method(function(pattern)
        if type(actual) ~= "string" or not actual:find(pattern) then
          error("expected text matching the pattern " .. render(pattern) .. ", got " .. render(actual), 3)
        end
        return expectation
      end)
      expectation.to_error = method(function(text)
        if type(actual) ~= "function" then error("to_error expects a function, got " .. render(actual), 3) end
        local ok, raised = pcall(actual)
        if ok then error("expected an error, but the function returned", 3) end
        raised = tostring(raised)
        if text ~= nil and not raised:find(text, 1, true) then
          error("expected an error containing " .. render(text) .. ", got " .. render(raised), 3)
        end
        return expectation
      end)
      return expectation
    end
    """#
}
