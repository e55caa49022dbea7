local type, tostring, tonumber, next, rawget, getmetatable, format, concat, sort, mathtype, utf8len, utf8offset, huge =
  type, tostring, tonumber, next, rawget, getmetatable, string.format, table.concat, table.sort, math.type,
  utf8.len, utf8.offset, math.huge
local ALL = { items = huge, characters = huge, depth = huge, lines = huge }
local keywords = {}
for word in ("and break do else elseif end false for function goto if in local nil not or repeat return then true until while"):gmatch("%a+") do keywords[word] = true end

-- The words, from Swift's templates: `#` stands for a count, written 1,234,567.
local function grouped(n)
  local text = format("%d", n)
  local sign, digits = text:match("^(-?)(%d+)$")
  return sign .. digits:reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", "")
end
local function fill(template, ...)
  local counts, i = { ... }, 0
  return (template:gsub("#", function() i = i + 1 return grouped(counts[i]) end))
end
local function more(n) return fill(MORE, n) end

-- As Swift's quoteLuaString: %q's escapes, newline, return and tab by name.
local escapes = { ['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }
local function quote(s)
  return '"' .. s:gsub('[%c"\\]', function(c) return escapes[c] or format("\\%03d", c:byte()) end) .. '"'
end

-- A string past `characters`: its first characters (bytes when it is not UTF-8) and how many.
local function cut(s, limits)
  if #s <= limits.characters then return nil end
  local total = utf8len(s)
  if total == nil then return s:sub(1, limits.characters), #s end
  if total <= limits.characters then return nil end
  return s:sub(1, utf8offset(s, limits.characters + 1) - 1), total
end

local function keyOrder(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then
    local rank = { number = 1, string = 2 }
    return (rank[ta] or 3) < (rank[tb] or 3) or ((rank[ta] or 3) == (rank[tb] or 3) and ta < tb)
  end
  if ta == "number" or ta == "string" then return a < b end
  return tostring(a) < tostring(b)
end

-- keyOrder, faster for the common case of a string (or number) against its kind.
local function precedes(a, b)
  local ta = type(a)
  if ta == type(b) and (ta == "string" or ta == "number") then return a < b end
  return keyOrder(a, b)
end

-- The first `k` keys of `t` outside its sequence part (1…n) in key order, and how many there
-- are: a bounded insertion, so a table of a million keys is not sorted to show 25.
local function firstKeys(t, n, k)
  local chosen, count = {}, 0
  for key in next, t do
    if not (mathtype(key) == "integer" and key >= 1 and key <= n) then
      count = count + 1
      if k == huge then
        chosen[count] = key
      elseif k > 0 and (#chosen < k or precedes(key, chosen[k])) then
        local i = #chosen < k and #chosen + 1 or k
        while i > 1 and keyOrder(key, chosen[i - 1]) do chosen[i] = chosen[i - 1]; i = i - 1 end
        chosen[i] = key
      end
    end
  end
  if k == huge then sort(chosen, keyOrder) end
  return chosen, count
end

return function(value, options)
  options = options or {}
  local limits = options.all and ALL or LIMITS
  local width, textOf = options.width, options.tostring or tostring
  -- Lines still to write (on one line: entries), as LuaLiteralPrinter counts them.
  local budget = limits.lines
  local render
  local shapes = {}  -- table -> { n = its sequence's length, keys = the first others, count = entries }

  local function text(s)
    local shown, total = cut(s, limits)
    if shown == nil then return s end
    return shown .. "… " .. fill(CUT, total, total - limits.characters)
  end

  local function scalar(v)
    local t = type(v)
    if t == "string" then
      local shown, total = cut(v, limits)
      if shown == nil then return quote(v) end
      return quote(shown):sub(1, -2) .. '…" ' .. fill(CUT, total, total - limits.characters)
    end
    if t == "number" then
      if mathtype(v) == "integer" then return v == math.mininteger and "math.mininteger" or tostring(v) end
      if v ~= v then return "(0/0)" end
      if v == huge then return "math.huge" end
      if v == -huge then return "-math.huge" end
      local s
      for digits = 15, 17 do
        s = format("%." .. digits .. "g", v)
        if tonumber(s) == v then break end
      end
      if not s:find("[%.eEn]") then s = s .. ".0" end
      return s
    end
    if t == "nil" or t == "boolean" then return tostring(v) end
    return "<" .. text(textOf(v)) .. ">"
  end

  local function keyText(key)
    if type(key) == "string" and #key <= limits.characters and key:match("^[%a_][%w_]*$") and not keywords[key] then
      return key .. " = "
    end
    return "[" .. scalar(key) .. "] = "
  end

  local function length(s) return utf8len(s) or #s end

  local function renderTable(t, indent, used, depth, seen)
    if seen[t] then budget = budget - 1 return "<cycle>" end
    local mt = getmetatable(t)
    if type(mt) == "table" and rawget(mt, "__tostring") and rawget(mt, "__name") ~= "identified" then
      budget = budget - 1
      return text(textOf(t))
    end
    -- (Known once per printout: trying a table on one line reads it again.)
    local known = shapes[t]
    if known == nil then
      local n = 0
      while rawget(t, n + 1) ~= nil do n = n + 1 end
      local keys, others = firstKeys(t, n, limits.items == huge and huge or math.max(0, limits.items - n))
      known = { n = n, keys = keys, count = n + others }
      shapes[t] = known
    end
    local n, keys, count = known.n, known.keys, known.count
    if count == 0 or depth >= limits.depth or budget < 1 then
      budget = budget - 1
      return count == 0 and "{}" or "{ " .. more(count) .. " }"
    end
    if width then
      -- On one line if it fits (tried with entries for a budget: more than `width` cannot).
      local lines, lineBudget = width, budget
      width, budget = nil, lines
      local line = renderTable(t, indent, used, depth, seen)
      width, budget = lines, lineBudget - 1
      if used + length(line) <= width then return line end
      if budget < 2 then return "{ " .. more(count) .. " }" end  -- no room for `{`, an entry and `}`
      budget = budget + 1
    end
    seen[t] = true
    budget = budget - (width and 2 or 1)  -- its `{` and `}` lines; on one line, itself
    local items, inner = {}, indent .. "  "
    for i = 1, count do
      -- Room for this entry, and for the `… n more` line if entries are left after it.
      local reserve = (width and i < count) and 1 or 0
      if i > limits.items or budget < 1 + reserve then break end
      budget = budget - reserve
      local key, item
      if i <= n then key, item = "", rawget(t, i) else key = keyText(keys[i - n]) item = rawget(t, keys[i - n]) end
      items[i] = key .. render(item, inner, #inner + #key, depth + 1, seen)
      budget = budget + reserve
    end
    seen[t] = nil
    local shown = #items
    if not width then
      if shown < count then items[shown + 1] = more(count - shown) end
      return "{ " .. concat(items, ", ") .. " }"
    end
    for i = 1, shown do items[i] = items[i] .. "," end
    if shown < count then items[shown + 1] = more(count - shown) budget = budget - 1 end
    return "{\n" .. inner .. concat(items, "\n" .. inner) .. "\n" .. indent .. "}"
  end

  render = function(v, indent, used, depth, seen)
    if type(v) == "table" then return renderTable(v, indent, used, depth, seen) end
    budget = budget - 1
    return scalar(v)
  end

  -- A string on its own prints bare, as `print` would (its caller cuts it as text).
  if options.bare and type(value) == "string" then return value end
  return render(value, "", 0, 0, {})
end
