-- relua.ui.forEach (issue #35's render goal): a list node whose rows are a forEach's elements, each
-- drawn by the element feature's view; the host draws again only the rows whose element changed.
local relua = require "relua"
local ui, feature, on = relua.ui, relua.feature, relua.on
local places = require "Tests.Support.ErrorPlaces"

-- A fresh Todos feature (and so fresh row cache entries) per test; `counter.calls` counts the
-- rows its Todo.view drew, which is how a test sees a row reused.
local function makeTodos(options)
  options = options or {}
  local counter = { calls = 0 }
  local Todo = feature "Todo" {
    state = { id = 0, title = "", done = false },
    actions = { toggle = {} },
    bindable = { "done" },
    reduce = on { toggle = function(s) s.done = not s.done end },
    view = options.view or function(todo)
      counter.calls = counter.calls + 1
      return ui.hstack { ui.toggle(todo.title, ui.binding.done), ui.button("Toggle", "toggle") }
    end,
  }
  local Todos = feature "Todos" {
    state = { todos = relua.identified {
      { id = 1, title = "A", done = false }, { id = 2, title = "B", done = false }, { id = 3, title = "C", done = true },
    } },
    actions = { add = "string", removeFirst = {}, moveFirstToEnd = {} },
    compose = { relua.forEach("todos", Todo) },
    reduce = on {
      add = function(s, title) table.insert(s.todos, { id = #s.todos + 10, title = title, done = false }) end,
      removeFirst = function(s) table.remove(s.todos, 1) end,
      moveFirstToEnd = function(s)
        local first = copy(s.todos[1])
        table.remove(s.todos, 1)
        table.insert(s.todos, first)
      end,
    },
    view = function() return ui.forEach("todos", Todo) end,
  }
  return Todos, counter, Todo
end

local function row(id, title, done)
  local literal = type(id) == "string" and ('"' .. id .. '"') or tostring(id)
  return ("%s %s (:todos[id=%s].binding.done %s) [Toggle :todos[id=%s].toggle]"):format(
    done and "[x]" or "[ ]", title, literal, tostring(not done), literal)
end

local function buttons(store)
  local out = {}
  for _, r in ipairs(relua.fromJSON(store:viewJSON()).rows) do
    for _, node in ipairs(r.content.children) do
      if node.kind == "button" then out[#out + 1] = node.action.path end
    end
  end
  return out
end

describe("relua.ui.forEach", function()
  it("draws each element with its feature's view, its commands the element's", function()
    local Todos = makeTodos()
    local store = relua.Store(Todos)
    expect(store:view()).to_be(table.concat({ row(1, "A", false), row(2, "B", false), row(3, "C", true) }, "\n"))
  end)

  it("a row's button sends its element's action", function()
    local Todos = makeTodos()
    local store = relua.Store(Todos)
    local paths = buttons(store)
    expect(paths[2]).to_be("todos[id=2].toggle")
    store:send(paths[2])
    expect(store:view()).to_contain(row(2, "B", true))
    expect(store:view()).to_contain(row(1, "A", false))
  end)

  it("draws again only the row whose element changed; the others are reused", function()
    local Todos, counter = makeTodos()
    local store = relua.Store(Todos)
    store:view()
    expect(counter.calls).to_be(3)
    store:view()
    expect(counter.calls).to_be(3)
    store:send("todos[id=2].toggle")
    expect(store:view()).to_be(table.concat({ row(1, "A", false), row(2, "B", true), row(3, "C", true) }, "\n"))
    expect(counter.calls).to_be(4)
    store:send("todos[id=3].binding.done", false)
    expect(store:view()).to_contain(row(3, "C", false))
    expect(counter.calls).to_be(5)
  end)

  it("an element added, removed or moved: only a new element is drawn", function()
    local Todos, counter = makeTodos()
    local store = relua.Store(Todos)
    store:view()
    store:send("add", "D")
    expect(store:view()).to_be(table.concat({ row(1, "A", false), row(2, "B", false), row(3, "C", true), row(13, "D", false) }, "\n"))
    expect(counter.calls).to_be(4)
    store:send("removeFirst")
    expect(store:view()).to_be(table.concat({ row(2, "B", false), row(3, "C", true), row(13, "D", false) }, "\n"))
    store:send("moveFirstToEnd")
    expect(store:view()).to_be(table.concat({ row(3, "C", true), row(13, "D", false), row(2, "B", false) }, "\n"))
    expect(counter.calls).to_be(4)
  end)

  it("an error in a row's view names its line", function()
    local here
    local Todos = makeTodos { view = function(todo)
      here = function() error("") end; if todo.title == "B" then error("cannot draw " .. todo.title) end
      return ui.text(todo.title)
    end }
    local store = relua.Store(Todos)
    local ok, err = pcall(function() return store:view() end)
    expect(ok).to_be(false)
    local place = places.raised(here)
    expect(tostring(err)).to_contain(place .. ": cannot draw B")
  end)

  it("is refused, with the reason, where the feature has no forEach at that key", function()
    local _, _, Todo = makeTodos()
    local Lonely = feature "Lonely" { state = { todos = relua.identified {} }, actions = {}, view = function() return ui.forEach("todos", Todo) end }
    local ok, err = pcall(function() return relua.Store(Lonely):view() end)
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain('Lonely.view: the view (forEach "todos") draws the elements of a relua.forEach("todos", …) child, and Lonely has none at todos')
  end)

  it("checks its arguments where it is called", function()
    local _, _, Todo = makeTodos()
    places.raisesHere(function() ui.forEach(1, Todo) end, function() error("") end,
      "relua.ui.forEach: the first argument must be the forEach's key (\"todos\"), got number")
    places.raisesHere(function() ui.forEach("todos", {}) end, function() error("") end,
      "relua.ui.forEach: the second argument must be the forEach's feature, with a view, got table")
  end)
end)
