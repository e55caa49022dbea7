local type, next, rawget, rawequal, getmetatable, tostring, pcall, error =
  type, next, rawget, rawequal, getmetatable, tostring, pcall, error

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

-- Values print as everywhere else (`LuaValuePrinter`, given as the chunk's argument): on one
-- line, cut by the same rule, a failing `__tostring` named instead of raised.
local printValue = ...
local function safeToString(value)
  local ok, text = pcall(tostring, value)
  if ok and type(text) == "string" then return text end
  return type(value) .. " (its __tostring failed)"
end
local options = { tostring = safeToString }
local function render(value) return printValue(value, options) end

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

-- The printer and the deep comparison, for luassert's messages and `same` (LuaTestLuassert).
return render, function(a, b) return deepEqual(a, b, {}) end
