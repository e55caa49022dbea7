-- Checks that an error names the script line that caused it, as Lua's own errors do
-- (`file:line: message`). A check writes the bad call and a call of Lua's `error` on one line,
-- so both must name the same place: `places.raisesHere(function() bad() end, function() error("") end, "…")`.
local M = {}

-- The `file:line` an error names, and the message after it.
function M.raised(f)
  local ok, err = pcall(f)
  assert(not ok, "expected an error")
  local place, message = tostring(err):match("^([^:]+:%d+): (.*)$")
  return place, message or tostring(err)
end

-- `bad` raises, from the line where `marker` raises, the message `expected` (or, with
-- `containing`, a message that contains it).
function M.raisesHere(bad, marker, expected, containing)
  local place, message = M.raised(bad)
  local here = M.raised(marker)
  expect(here ~= nil).to_be(true)
  expect(place).to_be(here)
  if containing then expect(message).to_contain(expected) else expect(message).to_be(expected) end
end

return M
