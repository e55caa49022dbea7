-- Declares a test ported from TCA's own test suites: as `it` when relua behaves as TCA does, as
-- `pending("… — fails today: …")` while it does not yet (the failure it gives today, so the suite
-- stays green and says what is left). `ported(source)` gives `port(name, body[, failsToday])` for
-- the TCA test file `source`; `ported(nil)` gives `port(source, name, body[, failsToday])`.
--
-- Set RUN_PENDING below to true to run the pending ports as tests (they fail until relua
-- behaves as TCA).
local RUN_PENDING = false

local function declare(name, body, failsToday)
  if failsToday and not RUN_PENDING then
    pending(name .. " — fails today: " .. failsToday)
  else
    it(name, body)
  end
end

return function(source)
  if source then
    return function(name, body, failsToday) declare(name .. " (" .. source .. ")", body, failsToday) end
  end
  return function(from, name, body, failsToday) declare(name .. " (" .. from .. ")", body, failsToday) end
end
