/// The Lua half of the REPL: printing values the way Lua code writes them.
///
/// `pretty(value, top)` renders tables in literal syntax with keys in a stable order (the sequence
/// part first, then numbers, then strings, then others), identifier keys bare, nested tables
/// indented when long, cycles marked `<cycle>`, and long tables elided (`… 940 more`). At the top
/// level strings print bare, as `print` would; inside tables they are quoted.
enum ConsolePrelude {
  static let chunkName = "=[relua repl]"

  static let source = #"""
    local type, tostring, pairs, next, rawget, getmetatable, format, sort, concat, mathtype =
      type, tostring, pairs, next, rawget, getmetatable, string.format, table.sort, table.concat, math.type
    local MAX_ITEMS, WIDTH = 50, 100
    local keywords = {}
    for word in ("and break do else elseif end false for function goto if in local nil not or repeat return then true until while"):gmatch("%a+") do keywords[word] = true end

    local function scalar(value)
      local t = type(value)
      if t == "string" then return format("%q", value):gsub("\\\n", "\\n") end
      if t == "number" then
        if mathtype(value) == "float" then
          if value ~= value then return "0/0" end
          if value == math.huge then return "math.huge" end
          if value == -math.huge then return "-math.huge" end
          local text = format("%.17g", value)
          if tonumber(format("%.15g", value)) == value then text = format("%.15g", value) end
          if not text:find("[%.eEn]") then text = text .. ".0" end
          return text
        end
        return tostring(value)
      end
      if t == "nil" or t == "boolean" then return tostring(value) end
      return "<" .. tostring(value) .. ">"
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

    local render
    local function renderTable(t, indent, seen)
      if seen[t] then return "<cycle>" end
      local mt = getmetatable(t)
      if type(mt) == "table" and rawget(mt, "__tostring") and rawget(mt, "__name") ~= "identified" then return tostring(t) end
      seen[t] = true
      local items, count = {}, 0
      local n = 0
      while rawget(t, n + 1) ~= nil do n = n + 1 end
      for i = 1, n do
        count = count + 1
        if count <= MAX_ITEMS then items[#items + 1] = render(rawget(t, i), indent .. "  ", seen) end
      end
      local keys = {}
      for key in next, t do
        if not (mathtype(key) == "integer" and key >= 1 and key <= n) then keys[#keys + 1] = key end
      end
      sort(keys, keyOrder)
      for _, key in ipairs(keys) do
        count = count + 1
        if count <= MAX_ITEMS then
          local name
          if type(key) == "string" and key:match("^[%a_][%w_]*$") and not keywords[key] then name = key
          else name = "[" .. scalar(key) .. "]" end
          items[#items + 1] = name .. " = " .. render(rawget(t, key), indent .. "  ", seen)
        end
      end
      seen[t] = nil
      if count > MAX_ITEMS then items[#items + 1] = format("… %d more", count - MAX_ITEMS) end
      if #items == 0 then return "{}" end
      local oneLine = "{ " .. concat(items, ", ") .. " }"
      if #oneLine + #indent <= WIDTH and not oneLine:find("\n") then return oneLine end
      return "{\n" .. indent .. "  " .. concat(items, ",\n" .. indent .. "  ") .. ",\n" .. indent .. "}"
    end

    render = function(value, indent, seen)
      if type(value) == "table" then return renderTable(value, indent, seen) end
      return scalar(value)
    end

    local function pretty(value, top)
      if top and type(value) == "string" then return value end
      return render(value, "", {})
    end

    return pretty
    """#
}
