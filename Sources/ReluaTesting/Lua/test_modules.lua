local luassert = ...
local preload = package.preload
local function give(value) return function() return value end end
preload["luassert"] = give(luassert.assert)
preload["luassert.assert"] = give(luassert.assert)
preload["luassert.spy"] = give(luassert.spy)
preload["luassert.stub"] = give(luassert.stub)
preload["luassert.mock"] = give(luassert.mock)
preload["luassert.match"] = give(luassert.match)
preload["luassert.util"] = give(luassert.util)
preload["say"] = give(luassert.say)
preload["busted.runner"] = give(function() end)

local names = {
  "describe", "context", "insulate", "expose", "it", "spec", "test", "pending",
  "setup", "teardown", "strict_setup", "strict_teardown", "lazy_setup", "lazy_teardown",
  "before_each", "after_each", "finally",
}
local api = { assert = luassert.assert, spy = luassert.spy, stub = luassert.stub, mock = luassert.mock,
  match = luassert.match }
for _, name in ipairs(names) do api[name] = rawget(_G, name) end
local busted = setmetatable({}, {
  __index = function(_, key)
    local value = api[key]
    if value == nil then
      error(string.format("busted.%s is not in relua test (it has busted's describe, it, pending, "
        .. "the hooks, finally, insulate, expose, assert, spy, stub, mock and match)", tostring(key)), 2)
    end
    return value
  end,
})
preload["busted"] = give(busted)
