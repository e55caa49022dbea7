-- The differential check of relua's pattern matcher (Sources/CLuaShim/pattern.c) against liblua's
-- own string.find/match/gmatch/gsub: the same results and the same error messages. Run in a
-- trusted relua state by LuaTests (PatternTests) and by relua-fuzz's `pattern` target.
--
--   local check = load(this)(originals, mine)   -- tables of the four functions
--   check.compare(subject, pattern, replacement, init, plain) --> nil, or a description of the difference
--   check.random(count, seed)                                 --> cases run, first difference or nil
--
-- Each function is called through the string table (string.find = impl.find, then restored), so
-- argument errors name it the same way for both.
local O, M = ...
local S = string
local pack = table.pack

local function describe(r)
  local parts = {r[1] and "ok" or "error"}
  for i = 2, r.n do parts[#parts + 1] = type(r[i]) == "string" and string.format("%q", r[i]) or tostring(r[i]) end
  return table.concat(parts, ", ")
end

local function same(a, b)
  if a.n ~= b.n then return false end
  for i = 1, a.n do
    if a[i] ~= b[i] or math.type(a[i]) ~= math.type(b[i]) then return false end
  end
  return true
end

local function with(impl, name, f, ...)
  S[name] = impl[name]
  local r = pack(pcall(f, ...))
  S[name] = M[name]
  return r
end

-- All of gmatch's results (at most 200 iterations), flattened, '|' after each.
local function gmatch_all(s, p, init)
  local out, it = {}, S.gmatch(s, p, init)
  for _ = 1, 200 do
    local r = pack(it())
    if r[1] == nil then break end
    for i = 1, r.n do out[#out + 1] = r[i] end
    out[#out + 1] = "|"
  end
  return table.unpack(out)
end

local calls = {
  find = function(s, p, r, init, plain) return S.find(s, p, init, plain) end,
  match = function(s, p, r, init) return S.match(s, p, init) end,
  gmatch = function(s, p, r, init) return gmatch_all(s, p, init) end,
  gsub = function(s, p, r, init) return S.gsub(s, p, r, init) end,
}
local order = {"find", "match", "gmatch", "gsub"}

local check = {}

function check.compare(s, p, r, init, plain)
  for _, name in ipairs(order) do
    -- relua's first: under an instruction limit (the fuzz target's) a pattern too costly to
    -- compare stops there, before liblua's, which nothing stops, runs it.
    local b = with(M, name, calls[name], s, p, r, init, plain)
    local a = with(O, name, calls[name], s, p, r, init, plain)
    if not same(a, b) then
      return string.format("%s(%q, %q, %s, %s, %s)\n  lua:   %s\n  relua: %s", name, s, p, tostring(r),
        tostring(init), tostring(plain), describe(a), describe(b))
    end
  end
  return nil
end

local pieces = {
  "a", "b", "x", ".", " ", "-", "]", "^", "$", "%", "(", ")", "()", "*", "+", "-", "?",
  "%a", "%d", "%s", "%w", "%p", "%u", "%l", "%x", "%c", "%g", "%A", "%D", "%S", "%W", "%P", "%.",
  "%%", "%]", "%(", "%-", "%z", "%q", "\0",
  "[ab]", "[^a]", "[a-c]", "[%a_]", "[]]", "[^]]", "[", "[a-", "[%", "[^", "[a-%d]", "[-a]", "[a-]",
  "%b()", "%bab", "%b", "%ba", "%f[%w]", "%f[^a]", "%f[a]", "%f", "%fa", "%f[",
  "%0", "%1", "%2", "%3", "a*", "a+", "a-", "a?", ".*", ".-", "(a*)", "(.-)b", "(%w+)", "()a()",
}
local subject_chars = {"a", "a", "b", "x", "(", ")", " ", "1", "-", "]", "%", "\0", ".", "A", "_"}
local replacements = {"", "x", "%0", "%1", "%2", "<%1>", "%%", "%", "%a", "[%0%0]", 7, 2.5}
local tables = {
  {a = "A", b = false, ["("] = 1, x = {}, ab = "AB", [1] = "one"},
  {},
}
local functions = {
  function(...) return select("#", ...) > 1 and tostring(select(2, ...)) or nil end,
  function(c) return c == "a" and "A" or false end,
  function(c) return #tostring(c) end,
  function() return {} end,
  function(c) if c == "x" then error("replacement error", 0) end return c .. c end,
}

function check.random(count, seed)
  math.randomseed(seed)
  local random = math.random
  for case = 1, count do
    local n = random(0, 7)
    local p = {}
    for i = 1, n do p[i] = pieces[random(#pieces)] end
    local pattern = table.concat(p)
    local s = {}
    for i = 1, random(0, 12) do s[i] = subject_chars[random(#subject_chars)] end
    local subject = table.concat(s)
    local kind = random(10)
    local r
    if kind <= 6 then r = replacements[random(#replacements)]
    elseif kind <= 8 then r = functions[random(#functions)]
    elseif kind == 9 then r = tables[random(#tables)]
    else r = nil end
    local init = random(4) == 1 and random(-15, 15) or nil
    local plain = random(6) == 1
    local difference = check.compare(subject, pattern, r, init, plain)
    if difference then return case, difference end
  end
  return count, nil
end

-- A fuzz input: lines "pattern", "subject", "replacement", "init" (the last three optional). A
-- replacement `=f1`…`=f5` is one of the functions above, `=t1`/`=t2` a table, `=n` nil; an
-- init of `plain` searches plainly.
function check.input(text)
  local fields, at = {}, 1
  while #fields < 3 do
    local newline = O.find(text, "\n", at, true)
    if not newline then break end
    fields[#fields + 1] = text:sub(at, newline - 1)
    at = newline + 1
  end
  fields[#fields + 1] = text:sub(at)
  local pattern, subject, r, extra = fields[1], fields[2] or "", fields[3] or "%0", fields[4]
  local which = O.match(r, "^=([ftn])(%d?)$")
  if which == "f" then r = functions[tonumber(O.match(r, "%d")) or 1] or functions[1]
  elseif which == "t" then r = tables[tonumber(O.match(r, "%d")) or 1] or tables[1]
  elseif which == "n" then r = nil end
  local plain = extra == "plain"
  local init = not plain and extra and math.tointeger(tonumber(extra)) or nil
  return check.compare(subject, pattern, r, init, plain)
end

return check
