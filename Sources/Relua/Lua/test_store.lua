-- The Lua half of relua.TestStore's methods (LuaTestStoreObject+Lua.swift): what must call back
-- into the test's Lua while store methods yield (a block run with another exhaustivity), and the
-- store's fields (`store.isDismissed`, TCA's property).
local methods, isDismissed = ...

-- store:withExhaustivity(mode[, options], body): `body` runs with exhaustivity `mode` ("on" or
-- "off", or true/false as store:exhaustive takes; options as store:exhaustive's, e.g.
-- { showSkipped = true }), then the store's previous exhaustivity is back, also when `body` raises.
-- pcall is yieldable in Lua 5.4: the store methods `body` calls may wait.
function methods.withExhaustivity(store, mode, options, body)
  if body == nil then options, body = nil, options end
  local on
  if mode == "on" or mode == true then
    on = true
  elseif mode == "off" or mode == false then
    on = false
  else
    error("bad argument #1 to 'store:withExhaustivity' (expected \"on\" or \"off\", got " .. tostring(mode) .. ")", 2)
  end
  if type(body) ~= "function" then
    error("bad argument #" .. (options == nil and 2 or 3) .. " to 'store:withExhaustivity' (expected a function to run)", 2)
  end
  local previous, previousShowing = store:exhaustivity()
  store:exhaustive(on, options)
  local results = table.pack(pcall(body))
  store:exhaustive(previous == "on", previousShowing and { showSkipped = true } or nil)
  if not results[1] then error(results[2], 0) end
  return table.unpack(results, 2, results.n)
end

-- The stores' __index: their methods, then their fields.
return function(store, key)
  local method = methods[key]
  if method ~= nil then return method end
  if key == "isDismissed" then return isDismissed(store) end
  return nil
end
