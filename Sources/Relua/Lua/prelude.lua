local host = ...
local type, error, pairs, ipairs, next, select, tostring, setmetatable, getmetatable =
  type, error, pairs, ipairs, next, select, tostring, setmetatable, getmetatable
local format, concat = string.format, table.concat

local M = {}
local FeatureMT = { __name = "Feature" }
FeatureMT.__index = FeatureMT
local HandlersMT = { __name = "relua.on" }
local ChildMT = { __name = "relua.compose" }
local AlertMT = { __name = "relua.alert" }
local GroupMT = { __name = "relua.group" }
local StateOnlyMT = { __name = "relua.stateOnly" }
local EffectMT = { __name = "Effect" }
local EffectMethods = {}
EffectMT.__index = EffectMethods

local function fail(level, message, ...)
  error(format(message, ...), level + 1)
end

local payloadTypes = { integer = true, float = true, number = true, string = true, boolean = true, table = true, any = true }
local function validPayloadType(t)
  if type(t) == "table" then return next(t) == nil end
  if type(t) ~= "string" then return false end
  t = t:gsub("%?$", "")
  local element = t:match("^{(.+)}$")
  return payloadTypes[element or t] == true
end

-- Shared keys (TCA's @Shared): relua.inMemory(name), relua.fileStorage(path), relua.appStorage(name),
-- relua.sharedKey(kind, argument) for a kind a Swift program registered. A feature binds fields
-- of its state to keys (`shared = { items = Items }`); key:element(), key:field(path) and
-- key:readOnly() make keys for a part of the value, or one its holders cannot write.
local SharedKeyMT = { __name = "relua.sharedKey" }
local SharedKeyMethods = {}
SharedKeyMT.__index = SharedKeyMethods

local function sharedKey(kind, argument, level)
  return setmetatable({ kind = kind, argument = argument, definedAt = host.where(level + 1) }, SharedKeyMT)
end
local function named(what, name)
  if type(name) ~= "string" or name == "" then fail(3, "relua.%s: expected a name (a non-empty string), got %s", what, type(name)) end
  return name
end
function M.inMemory(name) return sharedKey("inMemory", named("inMemory", name), 2) end
function M.fileStorage(path) return sharedKey("fileStorage", named("fileStorage", path), 2) end
function M.appStorage(name) return sharedKey("appStorage", named("appStorage", name), 2) end
function M.sharedKey(kind, argument)
  if type(kind) ~= "string" or kind == "" then fail(2, "relua.sharedKey: expected the kind's name (a string), got %s", type(kind)) end
  return sharedKey(kind, argument, 2)
end
M.isSharedKey = function(value) return getmetatable(value) == SharedKeyMT end

local function derivedKey(key, changes)
  local copy = {}
  for k, v in pairs(key) do copy[k] = v end
  for k, v in pairs(changes) do copy[k] = v end
  copy.definedAt = host.where(3)
  return setmetatable(copy, SharedKeyMT)
end
local function checkKey(key, method)
  if getmetatable(key) ~= SharedKeyMT then fail(3, "key:%s: call it with ':' on a shared key", method) end
  return key
end
-- The element of a shared identified collection with the holder's own id (TCA's $items[id:]).
function SharedKeyMethods:element()
  checkKey(self, "element")
  if self.projection then fail(2, "%s: a key for a part of a value cannot be narrowed again", tostring(self)) end
  return derivedKey(self, { projection = "element" })
end
-- A field (or a path of fields, "a.b") of a shared record.
function SharedKeyMethods:field(path)
  checkKey(self, "field")
  if type(path) ~= "string" or not path:match("^[%a_][%w_]*$") and not path:match("^[%a_][%w_.]*[%w_]$") then
    fail(2, "key:field: expected a field name or a path of them (\"settings.theme\"), got %s", type(path) == "string" and format("%q", path) or type(path))
  end
  if self.projection then fail(2, "%s: a key for a part of a value cannot be narrowed again", tostring(self)) end
  return derivedKey(self, { projection = "field", path = path })
end
-- A SharedReader: holders see the value and cannot write it.
function SharedKeyMethods:readOnly()
  checkKey(self, "readOnly")
  return derivedKey(self, { readOnly = true })
end
-- The value (a plain table), in a reducer or an effect: the store's share.
function SharedKeyMethods:get() return host.sharedGet(checkKey(self, "get")) end
-- In an effect or a reducer: sets the value (every holder sees it; saved; in a reducer, a write of
-- its send).
function SharedKeyMethods:set(value) host.sharedSet(checkKey(self, "set"), value) end
-- In an effect or a reducer: fn(value) changes the value (a plain table) in place or returns a new
-- one; no other write comes between reading and writing it (fn cannot await).
function SharedKeyMethods:withLock(fn)
  checkKey(self, "withLock")
  if type(fn) ~= "function" then fail(2, "key:withLock: expected a function(value)") end
  local value = host.sharedGet(self)
  local body = coroutine.create(fn)
  local ok, result = coroutine.resume(body, value)
  if not ok then error(result, 0) end
  if coroutine.status(body) ~= "dead" then
    fail(2, "%s:withLock: the function awaited; a locked change cannot wait (await before withLock)", tostring(self))
  end
  if result ~= nil then value = result end
  host.sharedSet(self, value)
  return value
end
-- Why the stored value could not be read (the default is used), or nil.
function SharedKeyMethods:loadError() return host.sharedError(checkKey(self, "loadError"), "load") end
-- Why the last save failed, or nil.
function SharedKeyMethods:saveError() return host.sharedError(checkKey(self, "saveError"), "save") end
function SharedKeyMT:__tostring()
  local text
  if self.kind == "inMemory" or self.kind == "fileStorage" or self.kind == "appStorage" then
    text = format("%s(%q)", self.kind, self.argument)
  else
    text = format("sharedKey(%q, %s)", self.kind, tostring(self.argument))
  end
  if self.projection == "element" then text = text .. ":element()" end
  if self.projection == "field" then text = format("%s:field(%q)", text, self.path) end
  if rawget(self, "readOnly") then text = text .. ":readOnly()" end  -- (raw: the method readOnly is found through __index)
  return text
end

-- relua.group { startMeeting = {}, … }: a group of a feature's actions (TCA's `case
-- delegate(Delegate)`), declared in `actions` and addressed as `delegate.startMeeting`; groups nest.
function M.group(actions)
  if type(actions) ~= "table" or next(actions) == nil then
    fail(2, "relua.group: expected a table of actions { name = {} or a payload type or relua.group {…} }, got %s",
      type(actions) == "table" and "an empty table" or type(actions))
  end
  return setmetatable({ group = actions }, GroupMT)
end

-- A feature's `actions` (and its groups', `prefix` being the group's path and a dot).
local function checkActions(feature, actions, prefix)
  for action, payload in pairs(actions) do
    if type(action) ~= "string" or not action:match("^[%a_][%w_]*$") then
      fail(3, "feature '%s': action names must be identifiers, got %s", feature, tostring(action))
    end
    if getmetatable(payload) == GroupMT then
      checkActions(feature, payload.group, prefix .. action .. ".")
    elseif not validPayloadType(payload) then
      local group = type(payload) == "table" and "; a group of actions is relua.group { … }" or ""
      fail(3, "feature '%s': action '%s%s': payload must be {} (none) or a type: integer, float, number, string, boolean, table, any, {T} (array of T), T? (optional); got %s%s",
        feature, prefix, action, type(payload) == "string" and format("%q", payload) or type(payload), group)
    end
  end
end


-- `task = "onTask"`: one of the feature's own actions, taking no payload (or an optional one), that
-- a host showing the feature's screen sends when it appears (TCA's `.task { await
-- store.send(.onTask).finish() }`); its effects are cancelled when the screen goes.
local function checkTask(name, task, actions)
  if task == nil then return end
  if type(task) ~= "string" then
    fail(3, "feature '%s': 'task' must name one of its actions (the one sent when its screen appears), got %s", name, type(task))
  end
  local payload = actions[task]
  if payload == nil then
    fail(3, "feature '%s': task = %q is not one of its actions; declare it: actions = { %s = {} }", name, task, task)
  end
  if type(payload) == "string" and payload ~= "any" and payload:sub(-1) ~= "?" then
    fail(3, "feature '%s': task = %q: the action takes a payload (%s), but a screen appearing sends none; declare it as {} or with an optional payload (%s?)", name, task, payload, payload)
  end
end

-- feature "Name" { state = …, actions = …, compose = {…}, bindable = {…}, reduce = …, view = …, task = … }
local featureFields = { state = true, actions = true, compose = true, bindable = true, reduce = true, view = true, dependencies = true, shared = true }
featureFields.task = true  -- the action a host sends when the feature's screen appears (TCA's .task)
function M.feature(name)
  if type(name) ~= "string" or name == "" then
    fail(2, "relua.feature: expected a feature name (a string), got %s", type(name))
  end
  local definedAt = host.where(2)
  return function(spec)
    if type(spec) ~= "table" then
      fail(2, "feature '%s': expected a table { state = ..., actions = ..., reduce = ... }, got %s", name, type(spec))
    end
    for key in pairs(spec) do
      if not featureFields[key] then
        fail(2, "feature '%s': unknown field '%s' (known: actions, bindable, compose, dependencies, reduce, shared, state, task, view)", name, tostring(key))
      end
    end
    local state = spec.state
    if state == nil then state = {} end
    if type(state) ~= "table" and type(state) ~= "function" then
      fail(2, "feature '%s': 'state' must be a table or a function(deps) returning one, got %s", name, type(state))
    end
    local actions = spec.actions or {}
    if type(actions) ~= "table" then fail(2, "feature '%s': 'actions' must be a table, got %s", name, type(actions)) end
    checkActions(name, actions, "")
    local compose = spec.compose or {}
    if type(compose) ~= "table" then fail(2, "feature '%s': 'compose' must be a list of relua.scope/optional/forEach/presents/stack", name) end
    local keys = {}
    local ownPlaced = false
    for index, child in ipairs(compose) do
      if getmetatable(child) ~= ChildMT then
        fail(2, "feature '%s': compose[%d] is not a relua.scope/optional/forEach/presents/stack/own/reduce/onChange", name, index)
      end
      if child == M.own then
        if ownPlaced then fail(2, "feature '%s': relua.own is in compose twice", name) end
        ownPlaced = true
        goto continue
      end
      if child.kind == "reduce" or child.kind == "onChange" then goto continue end
      if keys[child.key] then fail(2, "feature '%s': '%s' is composed twice", name, child.key) end
      if actions[child.key] then fail(2, "feature '%s': '%s' is both an action and a child", name, child.key) end
      keys[child.key] = true
      ::continue::
    end
    local bindable = spec.bindable or {}
    if type(bindable) ~= "table" then fail(2, "feature '%s': 'bindable' must be a list of field names", name) end
    for _, field in ipairs(bindable) do
      if type(field) ~= "string" then fail(2, "feature '%s': 'bindable' must list field names (strings)", name) end
    end
    local reduce = spec.reduce
    if reduce ~= nil and type(reduce) ~= "function" and getmetatable(reduce) ~= HandlersMT then
      fail(2, "feature '%s': 'reduce' must be relua.on { action = function(state, payload, deps) ... end } or a function(state, action, deps)", name)
    end
    if spec.dependencies ~= nil and type(spec.dependencies) ~= "table" then
      fail(2, "feature '%s': 'dependencies' must be a table { name = value } (as a store's deps)", name)
    end
    local shared = spec.shared
    if shared ~= nil then
      if type(shared) ~= "table" then fail(2, "feature '%s': 'shared' must be a table { field = key } (keys: relua.inMemory, relua.fileStorage, relua.appStorage, relua.sharedKey)", name) end
      for field, key in pairs(shared) do
        if type(field) ~= "string" or not field:match("^[%a_][%w_]*$") then
          fail(2, "feature '%s': shared: fields are names, got %s", name, tostring(field))
        end
        if getmetatable(key) ~= SharedKeyMT then
          fail(2, "feature '%s': shared.%s must be a shared key (relua.inMemory, relua.fileStorage, relua.appStorage or relua.sharedKey), got %s", name, field, type(key))
        end
        if keys[field] then fail(2, "feature '%s': '%s' is both a child and a shared field", name, field) end
      end
    end
    if spec.view ~= nil and type(spec.view) ~= "function" then
      fail(2, "feature '%s': 'view' must be a function(state) returning text", name)
    end
    checkTask(name, spec.task, actions)
    return setmetatable({
      name = name, state = state, actions = actions, compose = compose, bindable = bindable,
      reduce = reduce, view = spec.view, dependencies = spec.dependencies, shared = shared, definedAt = definedAt,
      task = spec.task,
    }, FeatureMT)
  end
end

-- The feature's initial state (its `state` function called with deps, or a copy of its table).
function FeatureMT:initial(deps)
  if getmetatable(self) ~= FeatureMT then fail(2, "Feature:initial: call it with ':' (Feature:initial(deps))") end
  local state = self.state
  if type(state) == "function" then
    local value = state(deps or host.deps())
    if type(value) ~= "table" then fail(2, "feature '%s': state(deps) must return a table, got %s", self.name, type(value)) end
    return value
  end
  return host.copy(state)
end

-- Feature:withDependencies { name = value }: the same feature giving those dependencies to
-- itself and its subtree (over any it gives already), for one place in a composition:
-- relua.scope("preview", Weather:withDependencies { weather = stub }).
function FeatureMT:withDependencies(given)
  if getmetatable(self) ~= FeatureMT then fail(2, "Feature:withDependencies: call it with ':'") end
  if type(given) ~= "table" then fail(2, "feature '%s': withDependencies expects a table { name = value }", self.name) end
  local copy = {}
  for key, value in pairs(self) do copy[key] = value end
  local dependencies = {}
  for key, value in pairs(self.dependencies or {}) do dependencies[key] = value end
  for key, value in pairs(given) do dependencies[key] = value end
  copy.dependencies = dependencies
  return setmetatable(copy, FeatureMT)
end

function FeatureMT:__tostring() return "Feature " .. self.name end

function M.isFeature(value) return getmetatable(value) == FeatureMT end

-- relua.on { increment = function(state, payload, deps, id) ... end, ["counter.playNext"] = ... }
function M.on(handlers)
  if type(handlers) ~= "table" then fail(2, "relua.on: expected a table of action handlers, got %s", type(handlers)) end
  for key, handler in pairs(handlers) do
    if type(key) ~= "string" then fail(2, "relua.on: handler keys must be action names (strings), got %s", type(key)) end
    if type(handler) ~= "function" then fail(2, "relua.on: the handler for '%s' must be a function, got %s", key, type(handler)) end
  end
  return setmetatable(handlers, HandlersMT)
end

-- (Called without a tail call, so that `level` still counts the declaring function's frame.)
local function child(kind, key, target, extra, level)
  if type(key) ~= "string" or not key:match("^[%a_][%w_]*$") then
    fail(level + 1, "relua.%s: expected the state key (an identifier) first, got %s", kind, tostring(key))
  end
  local entry = { kind = kind, key = key, target = target, definedAt = host.where(level + 1) }
  if extra then for k, v in pairs(extra) do entry[k] = v end end
  return setmetatable(entry, ChildMT)
end

-- A feature, or (where the child can be absent: optional, forEach, presents, stack) a function
-- returning one, so a feature can contain itself: `relua.optional("child", function() return
-- Node end)` — the function is called when the feature is first run.
local stateOnlyFeature
local function checkFeature(kind, key, feature, level, allowReference)
  if getmetatable(feature) ~= FeatureMT and not (allowReference and type(feature) == "function") then
    fail(level + 1, "relua.%s('%s', …): expected a feature (made by relua.feature)%s, got %s", kind, key,
      allowReference and " or a function returning one" or "", type(feature))
  end
end

-- relua.stateOnly (or relua.stateOnly "Meeting", a name for messages and types, or
-- relua.stateOnly { name = "Meeting", view = function(state) … end }, with the text the REPL
-- shows for its screen): a kind of a stack or a destination that is only state (TCA's `case
-- meeting(Meeting, syncUp:)`): pushed, presented, viewed and popped as any kind, with no reducer
-- and no actions.
M.stateOnly = setmetatable({}, StateOnlyMT)
StateOnlyMT.__call = function(_, spec)
  if type(spec) == "string" then spec = { name = spec } end
  if type(spec) ~= "table" then fail(2, "relua.stateOnly: expected a name (a string) or { name = …, view = function(state) … end }, got %s", type(spec)) end
  for key in pairs(spec) do
    if key ~= "name" and key ~= "view" then fail(2, "relua.stateOnly: unknown field '%s' (known: name, view)", tostring(key)) end
  end
  if type(spec.name) ~= "string" or spec.name == "" then fail(2, "relua.stateOnly: expected a name (a non-empty string), got %s", type(spec.name)) end
  if spec.view ~= nil and type(spec.view) ~= "function" then fail(2, "relua.stateOnly: 'view' must be a function(state) returning text") end
  return setmetatable({ name = spec.name, view = spec.view }, StateOnlyMT)
end
StateOnlyMT.__tostring = function(self) return self.name and format("relua.stateOnly %q", self.name) or "relua.stateOnly" end

-- The feature a state-only kind stands for: no actions, no reducer, declared where the kind is.
function stateOnlyFeature(target, kindName, level)
  return setmetatable({
    name = target.name or kindName, state = {}, actions = {}, compose = {}, bindable = {}, view = target.view,
    definedAt = host.where(level + 1), stateOnly = true,
  }, FeatureMT)
end

local function checkKinds(kind, key, kinds, level)
  if type(kinds) ~= "table" or next(kinds) == nil then
    fail(level + 1, "relua.%s('%s', kinds): expected a table { kind = Feature or relua.alert{…}, … }", kind, key)
  end
  for name, target in pairs(kinds) do
    if type(name) ~= "string" or not name:match("^[%a_][%w_]*$") then
      fail(level + 1, "relua.%s('%s', kinds): kind names must be identifiers, got %s", kind, key, tostring(name))
    end
    if getmetatable(target) ~= FeatureMT and getmetatable(target) ~= AlertMT and getmetatable(target) ~= StateOnlyMT and type(target) ~= "function" then
      fail(level + 1, "relua.%s('%s', kinds): '%s' must be a feature, a function returning one, relua.alert{…} or relua.stateOnly, got %s", kind, key, name, type(target))
    end
    if name == "dismiss" or name == "popFrom" or name == "push" then
      fail(level + 1, "relua.%s('%s', kinds): '%s' is reserved", kind, key, name)
    end
  end
  local made = nil
  for name, target in pairs(kinds) do
    if getmetatable(target) == StateOnlyMT then
      made = made or {}
      made[name] = stateOnlyFeature(target, name, level + 1)
    end
  end
  if made == nil then return kinds end
  local copy = {}
  for name, target in pairs(kinds) do copy[name] = made[name] or target end
  return copy
end

-- relua.scope("counter", Counter), or through a lens:
-- relua.scope("profile", Profile, { get = function(state) return {…} end, set = function(state, child) … end })
function M.scope(key, feature, lens)
  checkFeature("scope", key, feature, 2)
  if lens ~= nil and (type(lens) ~= "table" or type(lens.get) ~= "function" or type(lens.set) ~= "function") then
    fail(2, "relua.scope('%s', Feature, lens): the lens must be { get = function(state), set = function(state, child) }", key)
  end
  local entry = child("scope", key, feature, lens and { get = lens.get, set = lens.set }, 2)
  return entry
end

-- In `compose`, where the feature's own reducer runs among its scopes (default: after them),
-- like placing `Reduce` before `Scope` in a TCA body: { relua.own, relua.scope("counter", Counter) }
-- lets the parent see a child's state before the child changes it.
M.own = setmetatable({ kind = "own", key = "(own reducer)" }, ChildMT)

-- In `compose`, one more reducer of the feature's own, at its place (TCA's `Reduce` among
-- `Scope`s): relua.reduce(relua.on { … }) or relua.reduce(function(state, action, deps) … end).
function M.reduce(reduce)
  if type(reduce) == "table" and getmetatable(reduce) == nil then reduce = M.on(reduce) end
  if type(reduce) ~= "function" and getmetatable(reduce) ~= HandlersMT then
    fail(2, "relua.reduce: expected relua.on { action = function(state, payload, deps) ... end } or a function(state, action, deps), got %s", type(reduce))
  end
  return setmetatable({ kind = "reduce", reduce = reduce, definedAt = host.where(2) }, ChildMT)
end

-- In `compose`, TCA's `.onChange(of:)`: when the value at a state path (or what a
-- function(state) returns) differs from the one the action found, after the reducers before
-- it ran, handler(state, old, new, deps, action) runs and may return an effect.
function M.onChange(of, handler)
  if type(of) ~= "string" and type(of) ~= "function" then
    fail(2, "relua.onChange: expected a state path (\"count\", \"settings.theme\") or a function(state) returning the value to watch, got %s", type(of))
  end
  if type(handler) ~= "function" then
    fail(2, "relua.onChange(%s, handler): expected a function(state, old, new, deps, action), got %s",
      type(of) == "string" and format("%q", of) or "function", type(handler))
  end
  return setmetatable({ kind = "onChange", of = of, handler = handler, definedAt = host.where(2) }, ChildMT)
end

function M.optional(key, feature)
  checkFeature("optional", key, feature, 2, true)
  local entry = child("optional", key, feature, nil, 2)
  return entry
end

function M.forEach(key, feature)
  checkFeature("forEach", key, feature, 2, true)
  local entry = child("forEach", key, feature, nil, 2)
  return entry
end

-- relua.presents("destination", { counter = Counter, alert = relua.alert { … } }): one of
-- several kinds, `{ counter = state }` at the key; relua.presents("child", Child): one
-- feature, its state at the key as it is (actions `child.…`, `child.dismiss`).
function M.presents(key, kinds)
  if getmetatable(kinds) == StateOnlyMT then
    local entry = child("presents", key, stateOnlyFeature(kinds, key, 2), { single = true }, 2)
    return entry
  end
  if getmetatable(kinds) == FeatureMT or getmetatable(kinds) == AlertMT or type(kinds) == "function" then
    local entry = child("presents", key, kinds, { single = true }, 2)
    return entry
  end
  local entry = child("presents", key, checkKinds("presents", key, kinds, 2), nil, 2)
  return entry
end

function M.stack(key, kinds)
  local entry = child("stack", key, checkKinds("stack", key, kinds, 2), nil, 2)
  return entry
end

-- relua.alert { confirmDelete = {}, … }: an alert's button actions (the parent handles them;
-- the alert is dismissed after any of them). relua.confirmationDialog { … } alike (TCA's
-- ConfirmationDialogState): it behaves as an alert and shows as a dialog.
local function alert(what, actions, style)
  actions = actions or {}
  if type(actions) ~= "table" then fail(3, "relua.%s: expected a table of button actions { name = {} or payload type }", what) end
  for action, payload in pairs(actions) do
    if type(action) ~= "string" or not action:match("^[%a_][%w_]*$") or not validPayloadType(payload) then
      fail(3, "relua.%s: bad button action %s (a name = {} or a payload type)", what, tostring(action))
    end
  end
  return setmetatable({ actions = actions, style = style }, AlertMT)
end
function M.alert(actions)
  local made = alert("alert", actions, "alert")
  return made
end
function M.confirmationDialog(actions)
  local made = alert("confirmationDialog", actions, "confirmationDialog")
  return made
end

-- Collections
function M.identified(t)
  t = t or {}
  if type(t) ~= "table" then fail(2, "relua.identified: expected a table of records with ids, got %s", type(t)) end
  return host.markIdentified(t)
end

-- Pushes an element ({ kind = state }) onto a stack; returns its id: the store's next stack
-- element id (0, 1, 2… for a fresh store, never given twice, as TCA's), and more than any id
-- already in the stack (a stack loaded from JSON keeps its ids unique).
function M.push(stack, element)
  if type(element) ~= "table" then fail(2, "relua.push(stack, { kind = state }): expected a table, got %s", type(element)) end
  local nextID = 0
  for _, existing in ipairs(stack) do
    local id = existing.id
    if math.type(id) == "integer" and id >= nextID and id < math.maxinteger then nextID = id + 1 end
  end
  nextID = host.nextStackID(nextID)
  local copy = {}
  for k, v in pairs(element) do copy[k] = v end
  copy.id = nextID
  stack[#stack + 1] = copy
  return nextID
end

-- Effects: plain tagged tables the host turns into engine effects when a reducer returns one.
local function effect(t) return setmetatable(t, EffectMT) end
local function checkEffect(value, what, level)
  if getmetatable(value) ~= EffectMT then fail(level + 1, "%s: expected an Effect, got %s", what, type(value)) end
end
local function checkID(id, what, level)
  local t = type(id)
  if t ~= "string" and t ~= "number" and t ~= "boolean" then
    fail(level + 1, "%s: a cancellation id must be a string, number or boolean, got %s", what, t)
  end
end

local Effect = {}
Effect.none = effect { kind = "none" }

function Effect.send(action, payload)
  if type(action) ~= "string" then fail(2, "Effect.send: expected an action name, got %s", type(action)) end
  return effect { kind = "send", action = action, payload = payload, definedAt = host.where(2) }
end

function Effect.run(fn, options)
  if type(fn) ~= "function" then fail(2, "Effect.run: expected a function(send), got %s", type(fn)) end
  local catch = options and options.catch
  if catch ~= nil and type(catch) ~= "function" then fail(2, "Effect.run: 'catch' must be a function(error, send)") end
  local name = options and options.name
  if name ~= nil and (type(name) ~= "string" or name == "") then fail(2, "Effect.run: 'name' must be a non-empty string, got %s", type(name)) end
  -- Where it was returned; a tail call (`return Effect.run(…)`) leaves no caller's frame, so
  -- then where its function was written.
  local at = host.where(2)
  if at == "?" then at = host.defined(fn) end
  return effect { kind = "run", fn = fn, catch = catch, name = name, definedAt = at }
end

local function list(kind, ...)
  local effects = { ... }
  if select("#", ...) == 1 and getmetatable(effects[1]) ~= EffectMT and type(effects[1]) == "table" then effects = effects[1] end
  for index = 1, #effects do checkEffect(effects[index], "Effect." .. kind .. " (argument " .. index .. ")", 2) end
  return effect { kind = kind, effects = effects }
end
function Effect.merge(...) return list("merge", ...) end
function Effect.concatenate(...) return list("concatenate", ...) end

function Effect.cancel(id)
  checkID(id, "Effect.cancel", 2)
  return effect { kind = "cancel", id = id }
end

function EffectMethods:cancellable(id, cancelInFlight)
  checkEffect(self, "Effect:cancellable", 2)
  checkID(id, "Effect:cancellable", 2)
  return effect { kind = "cancellable", effect = self, id = id, cancelInFlight = cancelInFlight == true }
end

function EffectMethods:debounce(id, seconds)
  checkEffect(self, "Effect:debounce", 2)
  checkID(id, "Effect:debounce", 2)
  if type(seconds) ~= "number" or not (seconds >= 0 and seconds <= 9e9) then fail(2, "Effect:debounce: expected seconds: a finite number from 0 to 9e9, got %s", tostring(seconds)) end
  return effect { kind = "debounce", effect = self, id = id, seconds = seconds }
end

function EffectMethods:throttle(id, seconds, latest)
  checkEffect(self, "Effect:throttle", 2)
  checkID(id, "Effect:throttle", 2)
  if type(seconds) ~= "number" or not (seconds >= 0 and seconds <= 9e9) then fail(2, "Effect:throttle: expected seconds: a finite number from 0 to 9e9, got %s", tostring(seconds)) end
  return effect { kind = "throttle", effect = self, id = id, seconds = seconds, latest = latest == true }
end

function EffectMethods:merge(other) return Effect.merge(self, other) end
function EffectMethods:concatenate(other) return Effect.concatenate(self, other) end

function EffectMethods:catch(handler)
  checkEffect(self, "Effect:catch", 2)
  if self.kind ~= "run" then fail(2, "Effect:catch: only an Effect.run can catch errors") end
  if type(handler) ~= "function" then fail(2, "Effect:catch: expected a function(error, send)") end
  return effect { kind = "run", fn = self.fn, catch = handler, name = self.name, definedAt = self.definedAt }
end

-- relua.taskGroup(function(group) group:spawn(fn) … end), inside an Effect.run: children that run
-- concurrently as parts of the effect; returns when the function and every child are done. A
-- child's error cancels its siblings and is raised here, with the child's file:line.
function M.taskGroup(body)
  if type(body) ~= "function" then fail(2, "relua.taskGroup: expected a function(group), got %s", type(body)) end
  local id, outside = host.groupOpen()
  if not id then fail(2, "%s", outside) end
  local group = setmetatable({}, {
    __name = "relua.taskGroup",
    __index = {
      spawn = function(_, task)
        if type(task) ~= "function" then fail(2, "group:spawn: expected a function, got %s", type(task)) end
        local ended = host.groupSpawn(id, task, host.where(2))
        if ended then fail(2, "%s", ended) end
      end,
    },
  })
  local ok, failure = pcall(body, group)
  if ok then
    local waited, childOK, childFailure = pcall(host.groupWait, id)
    if not waited then ok, failure = false, childOK
    elseif not childOK then ok, failure = false, childFailure end
  end
  host.groupClose(id)
  if not ok then error(failure, 0) end
end

function EffectMT:__tostring() return "Effect." .. self.kind end

-- store:scope("counter") / store:scope("rows[id=42]"): a view of a store on one child. Its
-- send prefixes the child's place; its state reads the child's part (scoped stores of TCA).
local ScopedMT = { __name = "ScopedStore" }
ScopedMT.__index = ScopedMT
function M.scopeStore(store, prefix)
  if type(prefix) ~= "string" or prefix == "" then fail(2, "store:scope(place): expected a place like \"counter\" or \"rows[id=42]\"") end
  return setmetatable({ parent = store, prefix = prefix }, ScopedMT)
end
function ScopedMT:send(action, ...) return self.parent:send(self.prefix .. "." .. action, ...) end
function ScopedMT:state(path)
  return self.parent:state(path and (self.prefix .. "." .. path) or self.prefix)
end
function ScopedMT:scope(prefix) return M.scopeStore(self.parent, self.prefix .. "." .. prefix) end

M.Effect = Effect

-- relua.testing.<name>(…): the helpers the program running the tests registered (the relua
-- command: websocketEcho); they run only in tests. Looked up by the host at each access, so
-- a name nothing registered raises at the script's line, naming what is registered.
M.testing = setmetatable({}, {
  __name = "relua.testing",
  __index = function(_, name)
    if type(name) ~= "string" then fail(2, "relua.testing: helpers have names (strings), got %s", type(name)) end
    return host.testHelper(name)
  end,
  __newindex = function(_, name)
    fail(2, "relua.testing is read-only (assigning '%s'): a program registers helpers with ReluaHost.registerTestHelper", tostring(name))
  end,
})
M.isEffect = function(value) return getmetatable(value) == EffectMT end

-- Tags the host reads.
host.register(FeatureMT, HandlersMT, ChildMT, AlertMT, EffectMT)
-- relua.recordedCalls{ { "github", "search", arguments = { … }, results = { … }, seconds = s }, … }:
-- stubs that replay a recorded session's dependency calls (what :record writes), one table per
-- dependency for `deps = { github = recorded.github }`. Each dependency answers its calls in the
-- recorded order, after the recorded latency on the store's clock (`cancelled = true`: never,
-- as the session's was cancelled first); a call the session did not make raises, naming both.
function M.recordedCalls(calls)
  local function show(...)
    local shown = {}
    for i = 1, select("#", ...) do
      local value = select(i, ...)
      local ok, text = pcall(M.toJSON, value)
      shown[i] = ok and text or tostring(value)
    end
    return concat(shown, ", ")
  end
  local byName, asked, stubs = {}, {}, {}
  for _, call in ipairs(calls) do
    local name = call[1]
    byName[name] = byName[name] or {}
    byName[name][#byName[name] + 1] = call
  end
  for name, session in pairs(byName) do
    asked[name] = 0
    local stub = {}
    for _, call in ipairs(session) do
      local member = call[2]
      stub[member] = stub[member] or function(...)
        asked[name] = asked[name] + 1
        local n = asked[name]
        local recorded = session[n]
        local function written(m, ...) return format("deps.%s%s(%s)", name, m == "" and "" or "." .. m, show(...)) end
        local this = written(member, ...)
        if recorded == nil then
          error(format("recorded session: call #%d to deps.%s, %s, was not in the session (it made %d)", n, name, this, #session), 0)
        end
        local expected = written(recorded[2], table.unpack(recorded.arguments, 1, recorded.arguments.n or #recorded.arguments))
        if this ~= expected then
          error(format("recorded session: call #%d to deps.%s was %s, the session made %s", n, name, this, expected), 0)
        end
        if recorded.cancelled then
          M.deps.clock.sleep(24 * 3600)
          return nil
        end
        if (recorded.seconds or 0) > 0 then M.deps.clock.sleep(recorded.seconds) end
        local results = recorded.results or {}
        return table.unpack(results, 1, results.n or #results)
      end
    end
    -- A dependency that is one function was recorded under the member "".
    stubs[name] = stub[""] or stub
  end
  return stubs
end

return M
