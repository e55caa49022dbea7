-- Runs Lua's own test of its interpreter (main.lua, unchanged) and counts its failed checks
-- instead of stopping at the first: `assert` is replaced by one that records the failure (the
-- check's line in main.lua) and lets the test go on. An error that is not an assert (main.lua
-- cannot go on past it) is counted too, and ends the run there.
--
--     INTERPRETER counting.lua PROGNAME main.lua
--
-- PROGNAME: the interpreter main.lua tests (one word: main.lua quotes it in its shell commands);
-- main.lua finds it as the lowest `arg` index, which this driver sets.
local progname, mainFile = ...
assert(progname and mainFile, "usage: counting.lua PROGNAME main.lua")

local realAssert = assert
local passed, failed = 0, {}
local mainSource = "@" .. mainFile

-- The check's place: the outermost frame in main.lua (the check itself, not RUN or checkout).
local function checkLine()
  local line, level = nil, 2
  while true do
    local info = debug.getinfo(level, "Sl")
    if not info then break end
    if info.source == mainSource then line = info.currentline end
    level = level + 1
  end
  return line or -1
end

local function countingAssert(value, ...)
  if value then
    passed = passed + 1
  else
    failed[#failed + 1] = checkLine()
  end
  return value, ...
end

local chunk = realAssert(loadfile(mainFile))
_G.assert = countingAssert
arg = { [-1] = progname, [0] = mainFile }
local ok, err = xpcall(chunk, function (message)
  failed[#failed + 1] = checkLine()
  return tostring(message)
end)
_G.assert = realAssert

local lines = {}
for i, line in ipairs(failed) do lines[i] = line end
io.stdout:write(string.format("main.lua: %d passed, %d failed\n", passed, #failed))
if #failed > 0 then io.stdout:write("failed at main.lua lines: ", table.concat(lines, " "), "\n") end
if not ok then io.stdout:write("stopped by an error at main.lua:", failed[#failed], ": ", err, "\n") end
io.stdout:flush()
