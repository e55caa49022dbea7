local create = coroutine.create
local traceback = debug and debug.traceback

-- Where a suspended (or failed) coroutine stands: the first `source:line` of its traceback,
-- and the traceback.
local function where(co)
  if not traceback then return nil end
  local text = traceback(co, nil, 0)
  for line in text:gmatch("[^\n]+") do
    local at = line:match("^%s*([^%[%s][^:]*:%d+):")
    if at then return at, text end
  end
  return nil, text
end

return create, where
