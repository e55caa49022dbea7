-- Views as a tree (issue #35): relua.ui nodes, drawn as the REPL draws them, read as the stable
-- JSON a Swift program and a snapshot get, and checked where they are built (the script's line).
local relua = require "relua"
local ui, feature, on = relua.ui, relua.feature, relua.on

-- The guessing game's features with tree views, written here so that the tests below pin their
-- exact trees (Scripts/Features/GuessingGame.lua's own are snapshotted in screens_snapshot_test):
-- a round, the results, the game that scopes the round's view.
local Counter = feature "Counter" {
  state = function(deps) return { id = deps.uuid(), secret = deps.random(-100, 100), count = 0 } end,
  actions = { increment = {}, decrement = {}, playNext = {} },
  reduce = on {
    increment = function(s) s.count = s.count + 1 end,
    decrement = function(s) s.count = s.count - 1 end,
    playNext = function(s, _, deps) s.id, s.secret, s.count = deps.uuid(), deps.random(-100, 100), 0 end,
  },
  view = function(s)
    local feedback = s.count < s.secret and "higher" or s.count > s.secret and "lower" or "✓ correct"
    return ui.vstack {
      ui.text(("Guess: %d   (%s)"):format(s.count, feedback)),
      ui.hstack { ui.button("+", "increment"), ui.button("-", "decrement"), ui.button("Next", "playNext") },
    }
  end,
}

local ResultList = feature "ResultList" {
  state = { results = relua.identified {} },
  actions = { remove = "{integer}" },
  reduce = on {
    remove = function(s, offsets)
      table.sort(offsets, function(a, b) return a > b end)
      for _, position in ipairs(offsets) do table.remove(s.results, position) end
    end,
  },
  view = function(s)
    if #s.results == 0 then return ui.text "No results yet." end
    return ui.list(s.results, function(result, position)
      return ui.hstack {
        ui.text(("%d. %s  Secret: %d  Answer: %d"):format(
          position, result.correct and "✓" or "✗", result.secret, result.count)),
        ui.button("Delete", "remove", { position }),
      }
    end)
  end,
}

local Game = feature "Game" {
  state = function(deps) return { counter = Counter:initial(deps), results = relua.identified {}, destination = nil } end,
  actions = { showResults = {} },
  compose = { relua.own, relua.scope("counter", Counter), relua.presents("destination", { results = ResultList }) },
  reduce = on {
    ["counter.playNext"] = function(s)
      local c = s.counter
      table.insert(s.results, { id = c.id, secret = c.secret, count = c.count, correct = c.secret == c.count })
    end,
    showResults = function(s) s.destination = { results = { results = copy(s.results) } } end,
  },
  view = function(s)
    return ui.vstack {
      ui.text(("Games played: %d"):format(#s.results)),
      ui.scope("counter", Counter.view(s.counter)),
      ui.button("Results", "showResults"),
    }
  end,
}
local places = require "Tests.Support.ErrorPlaces"

-- Every node of a decoded tree (depth first), for finding its buttons.
local function nodes(tree, out)
  out = out or {}
  out[#out + 1] = tree
  for _, child in ipairs(tree.children or tree.rows or {}) do nodes(child.content or child, out) end
  return out
end

local function button(store, label)
  for _, node in ipairs(nodes(relua.fromJSON(store:viewJSON()))) do
    if node.kind == "button" and node.label == label then return node.action end
  end
  error("no button " .. label .. " on screen")
end

-- A form of every bound control, to draw each one.
local Form = feature "Form" {
  state = { title = "Retro", done = false, minutes = 5, theme = "orange", meta = { note = "hi" } },
  actions = { save = {} },
  bindable = { "title", "done", "minutes", "theme", "meta" },
  reduce = on { save = function() end },
  view = function(s)
    local binding = ui.binding
    return ui.section("Edit " .. s.title, {
      ui.textField("Title", binding.title),
      ui.toggle("Done", binding.done),
      ui.stepper("Minutes", binding.minutes),
      ui.picker("Theme", binding.theme, { "orange", "blue" }),
      ui.textField("Note", binding.meta.note),
      ui.image("https://example.com/a.png", "a chart"),
      ui.link("Save", "save"),
      false,  -- a place left empty (`cond and node`)
    })
  end,
}

describe("views as a tree", function()
  it("the Counter draws its buttons with their commands", function()
    local store = relua.Store(Counter, { deps = { uuid = "incrementing", random = { 5 } } })
    expect(store:view()).to_be("Guess: 0   (higher)\n[+ :increment] [- :decrement] [Next :playNext]")
  end)

  it("the Game scopes the Counter's view: its buttons send the counter's actions", function()
    local store = relua.Store(Game, { deps = { uuid = "incrementing", random = { 2 } } })
    expect(store:view()).to_be(table.concat({
      "Games played: 0",
      "Guess: 0   (higher)",
      "[+ :counter.increment] [- :counter.decrement] [Next :counter.playNext]",
      "[Results :showResults]",
    }, "\n"))
  end)

  it("step by step: press the tree's buttons on a TestStore, each change asserted", function()
    local store = relua.TestStore(Game, { deps = { uuid = "incrementing", random = { 1, 7 } } })
    store:send(button(store, "+").path, function(s) s.counter.count = 1 end)
    expect(store:view()).to_contain("Guess: 1   (✓ correct)")
    store:send(button(store, "Next").path, function(s)
      s.results[1] = { id = s.counter.id, secret = 1, count = 1, correct = true }
      s.counter.id, s.counter.secret, s.counter.count = relua.uuid(1), 7, 0
    end)
    store:send(button(store, "Results").path, function(s)
      s.destination = { results = { results = copy(s.results) } }
    end)
    expect(store:view()).to_be("1. ✓  Secret: 1  Answer: 1 [Delete :remove { 1 }]")
    local delete = button(store, "Delete")
    expect(delete.path).to_be("destination.results.remove")
    expect(delete.payload).to_be("[1]")
    store:send(delete.path, relua.fromJSON(delete.payload), function(s) s.destination.results.results = {} end)
    expect(store:view()).to_be("No results yet.")
  end)

  it("a pressed button that does not match the expected change fails with the usual diff", function()
    local store = relua.TestStore(Counter, { deps = { uuid = "incrementing", random = { 5 } } })
    expect(function() store:send(button(store, "+").path, function(s) s.count = 2 end) end)
      .to_error("A state change does not match expectation")
  end)

  it("draws bound controls with the value now and the command that sets it", function()
    local store = relua.Store(Form)
    expect(store:view()).to_be(table.concat({
      "Edit Retro",
      "  Title: [Retro] (:binding.title \"…\")",
      "  [ ] Done (:binding.done true)",
      "  Minutes: 5 [- :binding.minutes 4] [+ :binding.minutes 6]",
      "  Theme: <orange> (:binding.theme \"orange\"|\"blue\")",
      "  Note: [hi] (:binding.meta.note \"…\")",
      "  [image: a chart]",
      "  [Save › :save]",
    }, "\n"))
    store:send("binding.done", true)
    expect(store:view()).to_contain("[x] Done (:binding.done false)")
  end)

  it("gives the tree as stable JSON shaped as the Lua nodes: keys sorted, actions from the root", function()
    local store = relua.Store(Counter, { deps = { uuid = "incrementing", random = { 5 } } })
    local json = store:viewJSON()
    expect(json).to_be(store:viewJSON())
    local tree = relua.fromJSON(json)
    expect(tree.kind).to_be("vstack")
    expect(tree.children[1]).to_equal({ kind = "text", text = "Guess: 0   (higher)" })
    expect(tree.children[2].children[1]).to_equal({ kind = "button", label = "+", action = { path = "increment" } })
  end)

  it("a keyed list addresses its rows' actions by id", function()
    local Todos = feature "Todos" {
      state = { todos = relua.identified { { id = 3, done = false }, { id = "b", done = true } } },
      actions = {},
      compose = { relua.forEach("todos", feature "Todo" {
        state = { id = 0, done = false }, actions = { toggle = {} }, bindable = { "done" },
        reduce = on { toggle = function(s) s.done = not s.done end },
      }) },
      view = function(s)
        return ui.list(s.todos, function()
          return ui.hstack { ui.toggle("Done", ui.binding.done), ui.button("Toggle", "toggle") }
        end, "todos")
      end,
    }
    local store = relua.Store(Todos)
    expect(store:view()).to_be(table.concat({
      "[ ] Done (:todos[id=3].binding.done true) [Toggle :todos[id=3].toggle]",
      "[x] Done (:todos[id=\"b\"].binding.done false) [Toggle :todos[id=\"b\"].toggle]",
    }, "\n"))
    store:send("todos[id=3].toggle")
    expect(store:view()).to_contain("[x] Done (:todos[id=3].binding.done false)")
  end)

  it("a text view keeps working: one text node", function()
    local Plain = feature "Plain" { state = {}, actions = {}, view = function() return "plain" end }
    local store = relua.Store(Plain)
    expect(store:view()).to_be("plain")
    expect(relua.fromJSON(store:viewJSON())).to_equal({ kind = "text", text = "plain" })
  end)

  it("a view reads the state as a reducer does, and what it writes stays its own", function()
    local seen
    local Names = feature "Names" {
      state = { names = { "Cy", "Ana", "Bo" }, count = 1 },
      actions = { add = "string" },
      reduce = on { add = function(s, name) s.names[#s.names + 1] = name end },
      view = function(s)
        seen = s
        table.sort(s.names) -- sorted for display: the store's order is kept
        s.count = s.count + 1
        return ui.vstack { ui.text(table.concat(s.names, ", ")), ui.text("count " .. s.count) }
      end,
    }
    local store = relua.Store(Names)
    expect(store:view()).to_be("Ana, Bo, Cy\ncount 2")
    expect(store:state().names).to_equal({ "Cy", "Ana", "Bo" })
    expect(store:state().count).to_be(1)
    store:send("add", "Al")
    expect(store:view()).to_be("Al, Ana, Bo, Cy\ncount 2")
    expect(store:state().names).to_equal({ "Cy", "Ana", "Bo", "Al" })
    -- Kept past its call, the state it was given is no longer live (as a reducer's).
    expect(function() return seen.count end).to_error("state can only change inside a reducer")
  end)

  it("a view that sends is refused at its line, the store unchanged", function()
    local store
    local Sender = feature "Sender" {
      state = { n = 0 }, actions = { inc = {} },
      reduce = on { inc = function(s) s.n = s.n + 1 end },
      view = function(s)
        store:send("inc")
        return ui.text("n " .. s.n)
      end,
    }
    store = relua.Store(Sender)
    expect(function() store:view() end).to_error("views_test.lua:231: store:send(\"inc\") was called from inside a view")
    expect(store:state().n).to_be(0)
  end)
end)

describe("a toolbar (TCA's .toolbar)", function()
  -- A form presented as a sheet; its Add and Cancel are the list's actions, in the list's view.
  local Sheet = feature "Form" {
    state = { title = "" },
    bindable = { "title" },
    view = function() return ui.textField("Title", ui.binding.title) end,
  }
  local List = feature "List" {
    state = { items = {}, destination = nil },
    actions = { add = {}, confirm = {}, cancel = {} },
    compose = { relua.presents("destination", { form = Sheet }) },
    reduce = on {
      add = function(s) s.destination = { form = { title = "" } } end,
      confirm = function(s) s.items[#s.items + 1] = s.destination.form.title; s.destination = nil end,
      cancel = function(s) s.destination = nil end,
    },
    view = function(s)
      return ui.vstack {
        ui.toolbar { ui.button("New", "add") },
        ("%d items"):format(#s.items),
        s.destination and ui.toolbar("destination.form", { ui.button("Cancel", "cancel"), ui.button("Add", "confirm") }),
      }
    end,
  }

  it("a screen's own bar is drawn where it stands; the sheet's bar on the sheet, with the presenter's commands", function()
    local store = relua.TestStore(List)
    expect(store:view()).to_be("[New :add]\n0 items")
    store:send("add", function(s) s.destination = { form = { title = "" } } end)
    -- The list's view gives the sheet its bar and draws nothing of it itself.
    expect(store:view()).to_be("[Cancel :cancel] [Add :confirm]\nTitle: [] (:binding.title \"…\")")
    local tree = relua.fromJSON(store:viewJSON())
    expect(tree.kind).to_be("vstack")
    expect(tree.children[1]).to_equal({ kind = "toolbar", children = {
      { kind = "button", label = "Cancel", action = { path = "cancel" } },
      { kind = "button", label = "Add", action = { path = "confirm" } },
    } })
    store:send("destination.form.binding.title", "Milk", function(s) s.destination.form.title = "Milk" end)
    store:send("confirm", function(s) s.destination = nil; s.items[1] = "Milk" end)
    expect(store:view()).to_be("[New :add]\n1 items")
  end)

  it("its place must name a screen", function()
    places.raisesHere(function() ui.toolbar("../up", { ui.text "x" }) end, function() error("") end,
      'relua.ui.toolbar: the first argument must be the place of a presented screen ("destination.add"), got "../up"')
    places.raisesHere(function() ui.toolbar("destination.add", ui.text "x") end, function() error("") end,
      "relua.ui.toolbar expects a list of nodes: relua.ui.toolbar { … }, got one node")
  end)
end)

describe("a hint for the REPL only (relua.ui.replHint)", function()
  local Notes = feature "Notes" {
    state = { count = 0 },
    actions = {},
    view = function(s) return ui.vstack { ("%d notes"):format(s.count), ui.replHint('(=store:post("note"))') } end,
  }

  it("the REPL shows it as text; the tree marks it as the REPL's, for a page to leave out", function()
    local store = relua.Store(Notes)
    expect(store:view()).to_be('0 notes\n(=store:post("note"))')
    expect(relua.fromJSON(store:viewJSON()).children[2]).to_equal({ kind = "replHint", text = '(=store:post("note"))' })
  end)

  it("its text must be text", function()
    places.raisesHere(function() ui.replHint(5) end, function() error("") end,
      "relua.ui.replHint: its text must be text, got number")
  end)
end)

describe("a bad node is an error at the script's line", function()
  it("a constructor's bad argument", function()
    places.raisesHere(function() ui.button(5, "go") end, function() error("") end,
      "relua.ui.button: its label must be text, got number")
    places.raisesHere(function() ui.button("Go", nil) end, function() error("") end,
      "relua.ui.button: the action must be an action's name or path (\"increment\"), got nil")
    places.raisesHere(function() ui.vstack { ui.text "a", 5 } end, function() error("") end,
      "relua.ui.vstack: child 2 must be a node (relua.ui.text, …) or text, got number")
    places.raisesHere(function() ui.vstack(ui.text "a") end, function() error("") end,
      "relua.ui.vstack expects a list of nodes: relua.ui.vstack { … }, got one node")
    places.raisesHere(function() ui.textField("Title", "title") end, function() error("") end,
      "relua.ui.textField: the second argument must be a binding (relua.ui.binding.title), got string")
    places.raisesHere(function() ui.list({ { name = "x" } }, function() return "x" end) end, function() error("") end,
      "relua.ui.list: row 1 has no id (rows are identified: { id = …, … })")
    places.raisesHere(function() ui.picker("Theme", ui.binding.theme, { "a", 2 }) end, function() error("") end,
      "relua.ui.picker: option 2 must be text, got number")
  end)

  it("a hand-made table, or a tree too deep, is refused naming the view", function()
    local function viewing(view)
      return relua.Store(feature "Bad" { state = {}, actions = {}, view = view })
    end
    expect(function() viewing(function() return { kind = "button", label = "x" } end):view() end)
      .to_error("Bad.view: the view (button) needs text for action, got nil")
    expect(function() viewing(function() return ui.vstack { ui.button("Go", "go") } end):view() end)
      .to_error("Bad.view: the view › vstack child 1 (button 'Go') sends an action the feature does not take: "
        .. "Bad has no action 'go' (in 'go'); it accepts: no actions")
    expect(function() viewing(function() return ui.toggle("On", ui.binding.on) end):view() end)
      .to_error("Bad.view: the view (toggle 'On') is bound to a field the feature cannot set: ")
    expect(function() viewing(function() return { 1, 2 } end):view() end)
      .to_error("Bad.view: the view is a table without a kind")
    expect(function() viewing(function() return 42 end):view() end)
      .to_error("Bad.view must return text or a relua.ui node, got number")
    expect(function()
      viewing(function()
        local node = ui.text "deep"
        for _ = 1, 100 do node = ui.vstack { node } end
        return node
      end):view()
    end).to_error("Bad.view: the tree is nested more than 64 deep")
  end)
end)
