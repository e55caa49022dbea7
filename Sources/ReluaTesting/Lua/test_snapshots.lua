-- Screen snapshots in test files (LuaTestSnapshots): `assert.screen(store[, name])` and
-- `expect(store):to_match_screen([name])`. The chunk's argument is `snapshot(store, name)`,
-- which returns the failure's message, or nothing when the screen matches (or was written).
local snapshot = ...
local type, error, rawequal, rawset = type, error, rawequal, rawset

-- Raises at `level` (the test's line) when the screen does not match.
local function check(store, name, level)
  if name ~= nil and type(name) ~= "string" then
    error("a snapshot's name is text, got " .. type(name), level)
  end
  local failure = snapshot(store, name)
  if failure ~= nil then error(failure, level) end
  return store
end

rawset(assert, "screen", function(store, name) return check(store, name, 3) end)

local plainExpect = expect
function expect(actual)
  local expectation = plainExpect(actual)
  expectation.to_match_screen = function(first, ...)
    local name = first
    if rawequal(first, expectation) then name = ... end
    check(actual, name, 3)
    return expectation
  end
  return expectation
end
