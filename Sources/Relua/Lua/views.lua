-- relua.ui: a view as a tree of nodes (docs/DSL.md, "Views"). Each constructor checks its
-- arguments and raises at the script's line; the host reads the finished tree (ReluaViewNode,
-- ReluaViewTreeReader) and checks it again, so a hand-made table is refused too.
local type, error, format, setmetatable, getmetatable, rawget, ipairs, tostring, math =
  type, error, string.format, setmetatable, getmetatable, rawget, ipairs, tostring, math

local M = {}
local NodeMT = { __name = "relua.ui.node" }
local BindingMT = { __name = "relua.ui.binding" }

-- `level`: error's, counted from fail; 3 is the line that called the constructor calling fail.
local function fail(level, message, ...) error(format(message, ...), level) end

local function checkText(name, what, value)
  if type(value) ~= "string" then fail(4, "relua.ui.%s: %s must be text, got %s", name, what, type(value)) end
  return value
end

local function checkAction(name, action)
  if type(action) ~= "string" or action == "" then
    fail(4, "relua.ui.%s: the action must be an action's name or path (\"increment\"), got %s", name, type(action))
  end
  return action
end

local function isNode(value) return getmetatable(value) == NodeMT end

-- A table, or the state as a view is given it (a live view of the Swift state, as a reducer's).
local function isTableLike(value) return type(value) == "table" or getmetatable(value) == "StateView" end

-- A child: a node, or text (a text node); false leaves a place empty (`cond and ui.button(…)`).
local function child(name, value, position)
  if type(value) == "string" then return setmetatable({ kind = "text", text = value }, NodeMT) end
  if not isNode(value) then
    fail(5, "relua.ui.%s: child %d must be a node (relua.ui.text, …) or text, got %s", name, position, type(value))
  end
  return value
end

local function children(name, list)
  if type(list) ~= "table" or isNode(list) then
    fail(4, "relua.ui.%s expects a list of nodes: relua.ui.%s { … }, got %s", name, name, isNode(list) and "one node" or type(list))
  end
  local out = {}
  for position = 1, #list do
    local value = list[position]
    if value ~= false then out[#out + 1] = child(name, value, position) end
  end
  return out
end

local function node(kind, fields)
  fields.kind = kind
  return setmetatable(fields, NodeMT)
end

-- `binding.title`, `binding.syncUp.title`: the field a control sets with `binding.<path>` actions;
-- `binding.syncUp.attendees:at(id).name` a field of the element with that id (`[id=…]` in the path).
-- The path is kept under a key of its own, so no index a script writes (`binding.rows[1]`) finds it.
local PATH = {}
local function binding(path)
  return setmetatable({ [PATH] = path }, BindingMT)
end
BindingMT.__index = function(self, key)
  if type(key) ~= "string" then
    error(format("relua.ui.binding: a field name expected, got %s (an element by its id: binding.list:at(id))", type(key)), 2)
  end
  local path = rawget(self, PATH)
  return binding(path and path .. "." .. key or key)
end
-- The id as the path writes it: an integer, or a string in quotes (as `[id="a1"]` in an action).
local function idLiteral(id)
  if math.type(id) == "integer" then return format("%d", id) end
  if type(id) == "string" then return '"' .. id:gsub('[\\"]', "\\%0") .. '"' end
  return nil
end
-- `list:at(id)` is `list.at(list, id)`: the index gives the binding `list.at`, called here with
-- `list`. Only that call is an element: a field named `at` is still bound as `binding.list.at`.
BindingMT.__call = function(self, list, id)
  local path, listPath = rawget(self, PATH), getmetatable(list) == BindingMT and rawget(list, PATH) or nil
  if listPath == nil or path ~= listPath .. ".at" then
    error("relua.ui.binding is not a function: an element of a list is binding.list:at(id)", 2)
  end
  local literal = idLiteral(id)
  if literal == nil then
    error(format("relua.ui.binding %s:at(id): the id must be an integer or a string, got %s", listPath, math.type(id) or type(id)), 2)
  end
  return binding(listPath .. "[id=" .. literal .. "]")
end
BindingMT.__newindex = function() error("relua.ui.binding is read-only: name a field, binding.title", 2) end
BindingMT.__tostring = function(self) return "binding." .. tostring(rawget(self, PATH)) end
M.binding = binding(nil)

local function checkBinding(name, value)
  if getmetatable(value) ~= BindingMT or rawget(value, PATH) == nil then
    fail(4, "relua.ui.%s: the second argument must be a binding (relua.ui.binding.title), got %s", name, type(value))
  end
  return rawget(value, PATH)
end

--- Text: `relua.ui.text "Guess: 3"`.
function M.text(text) return node("text", { text = checkText("text", "its text", text) }) end

--- Children one below the other: `relua.ui.vstack { node, "text", cond and node }`.
function M.vstack(list) return node("vstack", { children = children("vstack", list) }) end

--- Children side by side.
function M.hstack(list) return node("hstack", { children = children("hstack", list) }) end

--- A button that sends `action` (a path from this view's screen) with `payload`.
function M.button(label, action, payload)
  return node("button", { label = checkText("button", "its label", label), action = checkAction("button", action), payload = payload })
end

--- A link: sends `action`, whose reducer pushes or presents (navigation stays derived from state).
function M.link(label, action, payload)
  return node("link", { label = checkText("link", "its label", label), action = checkAction("link", action), payload = payload })
end

--- A text field bound to a text field of the state: `relua.ui.textField("Title", binding.title)`.
function M.textField(label, field)
  return node("textField", { label = checkText("textField", "its label", label), binding = checkBinding("textField", field) })
end

--- A switch bound to a boolean field.
function M.toggle(label, field)
  return node("toggle", { label = checkText("toggle", "its label", label), binding = checkBinding("toggle", field) })
end

--- An integer field moved up and down by one.
function M.stepper(label, field)
  return node("stepper", { label = checkText("stepper", "its label", label), binding = checkBinding("stepper", field) })
end

--- One of `options` (texts) for a text field.
function M.picker(label, field, options)
  checkText("picker", "its label", label)
  local path = checkBinding("picker", field)
  if not isTableLike(options) or #options == 0 then fail(3, "relua.ui.picker: the options must be a list of texts, got %s", type(options)) end
  local out = {}
  for position, option in ipairs(options) do
    if type(option) ~= "string" then fail(3, "relua.ui.picker: option %d must be text, got %s", position, type(option)) end
    out[position] = option
  end
  return node("picker", { label = label, binding = path, options = out })
end

--- Rows of an identified collection, each drawn by `render(row, position)`. With `key` (the
--- collection's field, a forEach's key), a row's actions are its element's: `todos[id=3].toggle`.
function M.list(rows, render, key)
  if not isTableLike(rows) then fail(3, "relua.ui.list: the rows must be a list (an identified collection), got %s", type(rows)) end
  if type(render) ~= "function" then fail(3, "relua.ui.list: the second argument must be function(row) returning a node, got %s", type(render)) end
  if key ~= nil and type(key) ~= "string" then fail(3, "relua.ui.list: the key must be the collection's field name, got %s", type(key)) end
  local out = {}
  for position, row in ipairs(rows) do
    local id = isTableLike(row) and row.id or nil
    if id == nil then fail(3, "relua.ui.list: row %d has no id (rows are identified: { id = …, … })", position) end
    local content = render(row, position)
    if type(content) == "string" then content = M.text(content) end
    if not isNode(content) then fail(3, "relua.ui.list: the row function returned %s for row %d, not a node", type(content), position) end
    out[position] = { id = id, content = content }
  end
  return node("list", { rows = out, key = key })
end

--- The rows of the forEach child at `key` (`relua.forEach(key, RowFeature)`), each drawn by
--- `RowFeature.view(element)`, its actions and bindings its element's (`todos[id=3].toggle`). The
--- host takes the elements from the state and draws only the rows whose element changed since it
--- last drew them: for big lists (a row's view sees its element alone).
function M.forEach(key, feature)
  if type(key) ~= "string" then fail(3, "relua.ui.forEach: the first argument must be the forEach's key (\"todos\"), got %s", type(key)) end
  if type(feature) ~= "table" or type(rawget(feature, "view")) ~= "function" then
    fail(3, "relua.ui.forEach: the second argument must be the forEach's feature, with a view, got %s", type(feature))
  end
  return node("forEach", { key = key, feature = feature })
end

--- A titled group: `relua.ui.section("Results", { … })`.
function M.section(title, list)
  return node("section", { title = checkText("section", "its title", title), children = children("section", list) })
end

--- Text for the REPL only: what to type there (`(=store:post("userDidTakeScreenshot"))`). The REPL
--- shows it as text; a page or a native view leaves it out.
function M.replHint(text) return node("replHint", { text = checkText("replHint", "its text", text) }) end

--- An image by URL; a terminal shows its alt text.
function M.image(url, alt)
  return node("image", { url = checkText("image", "its URL", url), alt = checkText("image", "its alt text", alt) })
end

--- A child feature's view inside its parent's: its actions and bindings are the child's at `key`
--- (TCA's `store.scope(state: \.counter, action: \.counter)`).
function M.scope(key, content)
  checkText("scope", "the key", key)
  if type(content) == "string" then content = M.text(content) end
  if not isNode(content) then fail(3, "relua.ui.scope: the second argument must be a node, got %s", type(content)) end
  return node("scope", { key = key, content = content })
end

--- A bar of buttons (TCA's `.toolbar`): `relua.ui.toolbar { … }` is this screen's own;
--- `relua.ui.toolbar("destination.add", { … })` in a presenter's view is the bar of the screen it
--- presents there (a sheet's Add and Cancel, sending the presenter's actions), drawn on that
--- screen while it is shown.
function M.toolbar(screen, list)
  if list == nil and type(screen) == "table" then screen, list = nil, screen end
  if screen ~= nil and (type(screen) ~= "string" or not screen:match("^[%a_][%w_.%[%]=\"-]*$")) then
    fail(3, "relua.ui.toolbar: the first argument must be the place of a presented screen (\"destination.add\"), got %s", type(screen) == "string" and format("%q", screen) or type(screen))
  end
  return node("toolbar", { screen = screen, children = children("toolbar", list) })
end

--- Whether `value` is a node of relua.ui.
function M.isNode(value) return isNode(value) end

return M
