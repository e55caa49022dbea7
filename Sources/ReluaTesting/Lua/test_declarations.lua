local where = ...
local type, error, format, concat, tostring, insert, remove, ipairs =
  type, error, string.format, table.concat, tostring, table.insert, table.remove, ipairs
local next, rawget, rawset, rawequal, getmetatable, setmetatable, pcall =
  next, rawget, rawset, rawequal, getmetatable, setmetatable, pcall
local G = _G
local loaded = type(package) == "table" and package.loaded or nil

local declared, sealed = {}, false
local root = { kind = "file", hooks = {} }
local current = root
local running, finallyFn = nil, nil

-- Every public function below calls `checkDeclaring` itself, so level 3 is the script's line.
local function checkDeclaring(kind, name, fn, needsFunction)
  if sealed then error(format("%s() declares tests: call it at the top of a test file or inside describe", kind), 3) end
  if type(name) ~= "string" then
    error(format("bad argument #1 to '%s' (string expected, got %s)", kind, type(name)), 3)
  end
  if needsFunction and type(fn) ~= "function" then
    error(format("bad argument #2 to '%s' (function expected, got %s)", kind, type(fn)), 3)
  end
end

local function fullName(block, name)
  local names = { name }
  while block do
    if block.name then insert(names, 1, block.name) end
    block = block.parent
  end
  return concat(names, " ")
end

local function declare(name, fn, skipped)
  -- where(3): the script's line calling test/it/spec/pending/skip (which call declare).
  declared[#declared + 1] = {
    name = fullName(current, name), fn = fn, skipped = skipped, block = current, where = where(3),
  }
end

function test(name, fn) checkDeclaring("test", name, fn, true) declare(name, fn, false) end
function it(name, fn) checkDeclaring("it", name, fn, true) declare(name, fn, false) end
function spec(name, fn) checkDeclaring("spec", name, fn, true) declare(name, fn, false) end
function pending(name, fn)
  if sealed and fn == nil then
    if running == "finally" then error("'pending' not supported inside finally", 2) end
    error("\1relua pending\1" .. tostring(name), 0)
  end
  checkDeclaring("pending", name, fn, false)
  declare(name, fn, true)
end
function skip(name, fn) checkDeclaring("skip", name, fn, false) declare(name, fn, true) end

-- Insulation, as busted's: a shallow snapshot of _G (and its metatable) and package.loaded.
local NIL = {}

local function copy(t)
  local c = {}
  if t then for k, v in next, t do c[k] = v end end
  return c
end

local function snapshot()
  return { g = copy(G), loaded = copy(loaded), mt = getmetatable(G) }
end

local function difference(now, before)
  if not now then return nil end
  local changed, any = {}, false
  for k, v in next, now do
    if not rawequal(before[k], v) then changed[k] = v any = true end
  end
  for k in next, before do
    if rawget(now, k) == nil then changed[k] = NIL any = true end
  end
  return any and changed or nil
end

local function reset(t, before)
  if not t then return end
  for k in next, t do rawset(t, k, before[k]) end  -- existing keys only: safe while traversing
  for k, v in next, before do
    if rawget(t, k) == nil then rawset(t, k, v) end
  end
end

local function apply(t, changed)
  if not (t and changed) then return end
  for k, v in next, changed do
    if v == NIL then rawset(t, k, nil) else rawset(t, k, v) end
  end
end

-- The changes a block made (what `insulate` undid), put back for a test inside it.
local function changes(saved)
  local mt = getmetatable(G)
  return {
    g = difference(G, saved.g),
    loaded = difference(loaded, saved.loaded),
    mt = not rawequal(mt, saved.mt) and { mt } or nil,
  }
end

local states = {}  -- one per open block: its snapshot when it insulates, else false
-- The blocks whose bodies are running (the file loads): one whose body raises stays here.
local opening = {}

local function runBlock(kind, name, fn, envmode)
  local block = { kind = kind, name = name, parent = current, hooks = {} }
  states[#states + 1] = envmode == "insulate" and snapshot() or false
  current = block
  opening[#opening + 1] = block
  fn()
  opening[#opening] = nil
  current = block.parent
  local saved = remove(states)
  -- busted's expose: what the block did stays, even past an insulating parent's end.
  if envmode == "expose" and states[#states] then states[#states] = snapshot() end
  if saved then
    block.changes = changes(saved)
    pcall(setmetatable, G, saved.mt)
    reset(G, saved.g)
    reset(loaded, saved.loaded)
  end
end

function describe(name, fn) checkDeclaring("describe", name, fn, true) runBlock("describe", name, fn) end
function context(name, fn) checkDeclaring("context", name, fn, true) runBlock("describe", name, fn) end
function insulate(name, fn) checkDeclaring("insulate", name, fn, true) runBlock("insulate", name, fn, "insulate") end
function expose(name, fn) checkDeclaring("expose", name, fn, true) runBlock("expose", name, fn, "expose") end

-- Hooks of the current block, with the script line that declared them.
local function hook(kind, shown)
  return function(fn)
    if sealed then
      error(format("%s() declares a hook: call it at the top of a test file or inside describe", shown), 2)
    end
    if type(fn) ~= "function" then
      error(format("bad argument #1 to '%s' (function expected, got %s)", shown, type(fn)), 2)
    end
    local list = current.hooks[kind]
    if not list then list = {} current.hooks[kind] = list end
    list[#list + 1] = { fn = fn, name = shown, where = where(2) }
  end
end

setup = hook("setup", "setup")
teardown = hook("teardown", "teardown")
strict_setup = hook("setup", "strict_setup")
strict_teardown = hook("teardown", "strict_teardown")
lazy_setup = hook("lazy_setup", "lazy_setup")
lazy_teardown = hook("lazy_teardown", "lazy_teardown")
before_each = hook("before_each", "before_each")
after_each = hook("after_each", "after_each")

function finally(fn)
  if running ~= "it" then
    error("finally() registers what runs after a test: call it inside the test (it)", 2)
  end
  if type(fn) ~= "function" then
    error(format("bad argument #1 to 'finally' (function expected, got %s)", type(fn)), 2)
  end
  finallyFn = fn
end

local control = {}
function control.seal() sealed = true end
-- After the file failed to load: the block whose body raised, as `describe "full name"`, or nil.
function control.failedBlock()
  local block = opening[#opening]
  if not block then return nil end
  return format("%s %q", block.kind, fullName(block.parent, block.name))
end
function control.phase(name) running = name end
function control.takeFinally()
  local fn = finallyFn
  finallyFn = nil
  return fn
end
function control.prepare(index)
  local chain = {}
  local block = declared[index].block
  while block do insert(chain, 1, block) block = block.parent end
  local hooks = {}
  for i, b in ipairs(chain) do
    local c = b.changes
    if c then
      if c.mt then pcall(setmetatable, G, c.mt[1]) end
      apply(G, c.g)
      apply(loaded, c.loaded)
    end
    hooks[i] = b.hooks
  end
  return hooks
end

return declared, control
