local f, report = ...
local pack, unpack, pcall, error = table.pack, table.unpack, pcall, error
return function(...)
  local results = pack(pcall(f, ...))
  if not results[1] then
    report(results[2])
    error(results[2], 0)
  end
  return unpack(results, 2, results.n)
end
