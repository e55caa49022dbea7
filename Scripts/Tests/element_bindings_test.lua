-- Bindings into the elements of a list (TCA's `ForEach($store.syncUp.attendees) { $attendee in
-- TextField("Name", text: $attendee.name) }`): `binding.syncUp.attendees[id=3].name` sets the
-- name of the attendee with id 3, and `relua.ui.binding.syncUp.attendees:at(id).name` makes that
-- path in a view. Checked as other bindings are: the fields must exist, the element must exist
-- when sent, the value is of the field's kind; a refused send changes nothing.
local relua = require "relua"
local feature, on, ui = relua.feature, relua.on, relua.ui

-- The message of an error `fn` raises (without Lua's `file:line: ` before it).
local function failure(fn)
  local ok, err = pcall(fn)
  expect(ok).to_be(false)
  return (tostring(err):gsub("^[^:\n]+:%d+: ", ""))
end

local Form = feature "Form" {
  state = {
    syncUp = {
      title = "Design",
      attendees = { { id = 1, name = "Blob" }, { id = 2, name = "Blob Jr" } },
      -- Teams of members: an element inside an element.
      teams = { { id = "core", members = { { id = 7, name = "Ann", minutes = 1.5 } } } },
    },
    -- A bindable list at the top, with string ids.
    tags = relua.identified { { id = "a1", label = "red" }, { id = "b2", label = "blue" } },
  },
  actions = {},
  bindable = { "syncUp", "tags" },
  reduce = on {
    -- A handler of an element's binding names it without the id, as a forEach's handler does.
    ["binding.syncUp.attendees.name"] = function(s)
      if s.syncUp.title == "boom" then error("never") end
    end,
  },
  view = function(s)
    return ui.list(s.syncUp.attendees, function(attendee)
      return ui.textField("Name", ui.binding.syncUp.attendees:at(attendee.id).name)
    end)
  end,
}

describe("element bindings: binding.list[id=…].field", function()
  it("set a field of one element, asserted exhaustively like any binding", function()
    local store = relua.TestStore(Form)
    store:send("binding.syncUp.attendees[id=2].name", "Blob Sr", function(s)
      s.syncUp.attendees[2].name = "Blob Sr"
    end)
    store:send('binding.tags[id="b2"].label', "green", function(s) s.tags[2].label = "green" end)
    -- An element inside an element; a number field takes an integer and stays a float.
    store:send('binding.syncUp.teams[id="core"].members[id=7].minutes', 2, function(s)
      s.syncUp.teams[1].members[1].minutes = 2.0
    end)
    expect(math.type(store:state("syncUp.teams[1].members[1].minutes"))).to_be("float")
  end)

  it("an id the list does not hold is refused, naming the path and the ids; nothing changes", function()
    local store = relua.TestStore(Form)
    expect(failure(function() store:send("binding.syncUp.attendees[id=3].name", "x") end))
      .to_be("The reducer failed for this action: binding.syncUp.attendees[id=3].name of Form: "
        .. "state.syncUp.attendees has no element with id 3 (its ids: 1, 2)")
    expect(failure(function() store:send('binding.tags[id="zz"].label', "x") end))
      .to_be('The reducer failed for this action: binding.tags[id="zz"].label of Form: '
        .. 'state.tags has no element with id "zz" (its ids: "a1", "b2")')
    -- An integer is not the string of its digits.
    expect(failure(function() store:send('binding.syncUp.attendees[id="1"].name', "x") end))
      .to_contain('has no element with id "1" (its ids: 1, 2)')
    expect(failure(function() store:send("binding.syncUp.title[id=1].name", "x") end))
      .to_contain('state.syncUp.title holds string "Design", not a list of elements with ids')
    expect(store:state("syncUp.attendees[1].name")).to_be("Blob")
  end)

  it("a field the element does not have, or a value of another kind, is refused", function()
    local store = relua.TestStore(Form)
    expect(failure(function() store:send("binding.syncUp.attendees[id=1].nmae", "x") end))
      .to_be("The reducer failed for this action: binding.syncUp.attendees[id=1].nmae of Form: "
        .. "state.syncUp.attendees[id=1] has no field 'nmae' (it has: id, name)")
    expect(failure(function() store:send("binding.syncUp.attendees[id=1].name", 42) end))
      .to_be("The reducer failed for this action: binding.syncUp.attendees[id=1].name of Form: "
        .. 'state.syncUp.attendees[id=1].name holds string "Blob", got integer 42')
    expect(failure(function() store:send("binding.syncUp.attendess[id=1].name", "x") end))
      .to_contain("state.syncUp has no field 'attendess' (it has: attendees, teams, title)")
    expect(store:state("syncUp.attendees[1].name")).to_be("Blob")
  end)

  it("a path that ends at an element, or names an element by position, is refused when sent", function()
    local store = relua.TestStore(Form)
    expect(failure(function() store:send("binding.syncUp.attendees[id=1]", {}) end))
      .to_be("'binding.syncUp.attendees[id=1]': a binding sets a field; name a field of the element (binding.list[id=1].name)")
    expect(failure(function() store:send("binding.syncUp.attendees[1].name", "x") end))
      .to_contain("an action names the element by its id: [id=1]")
    expect(failure(function() store:send("binding.syncUp.attendees[id=1.5].name", "x") end))
      .to_contain("an element's id in a binding is an integer or a string, got 1.5")
  end)

  it("a wrong expectation fails with the test store's usual diff", function()
    local store = relua.TestStore(Form)
    local message = failure(function()
      store:send("binding.syncUp.attendees[id=1].name", "Blob Esq", function(s)
        s.syncUp.attendees[1].name = "Blob III"
      end)
    end)
    expect(message).to_contain("A state change does not match expectation")
    expect(message).to_contain('−         name = "Blob III"')
    expect(message).to_contain('+         name = "Blob Esq"')
    -- And a change left unasserted is one too.
    local unasserted = failure(function() store:send("binding.syncUp.attendees[id=2].name", "Blob Jr Jr") end)
    expect(unasserted).to_contain("State was not expected to change, but a change occurred")
  end)

  it("runs the handler that names the binding (ids left out); a raising one undoes the binding", function()
    local Counted = feature "Counted" {
      state = { rows = { { id = 1, name = "" } }, edits = 0 },
      actions = {},
      bindable = { "rows" },
      reduce = on {
        ["binding.rows.name"] = function(s)
          if s.rows[1].name == "boom" then error("a name that explodes") end
          s.edits = s.edits + 1
        end,
      },
    }
    local store = relua.TestStore(Counted)
    store:send("binding.rows[id=1].name", "x", function(s)
      s.rows[1].name = "x"
      s.edits = 1
    end)
    expect(failure(function() store:send("binding.rows[id=1].name", "boom") end)).to_contain("a name that explodes")
    expect(store:state("rows[1].name")).to_be("x")
    local live = relua.Store(Counted)
    expect(failure(function() live:send("binding.rows[id=1].name", "boom") end)).to_contain("a name that explodes")
    expect(live:state("rows[1].name")).to_be("")
    expect(live:state("edits")).to_be(0)
  end)
end)

describe("relua.ui.binding.list:at(id)", function()
  it("makes the element's path, an integer or a quoted string", function()
    expect(tostring(ui.binding.syncUp.attendees:at(3).name)).to_be("binding.syncUp.attendees[id=3].name")
    expect(tostring(ui.binding.tags:at("a1").label)).to_be('binding.tags[id="a1"].label')
    expect(tostring(ui.binding.tags:at('q"\\').label)).to_be('binding.tags[id="q\\"\\\\"].label')
    expect(tostring(ui.binding.teams:at("core").members:at(7).name))
      .to_be('binding.teams[id="core"].members[id=7].name')
    -- A field named `at` is still a field.
    expect(tostring(ui.binding.meeting.at)).to_be("binding.meeting.at")
  end)

  it("refuses an id that is neither an integer nor a string, and an index", function()
    expect(failure(function() return ui.binding.rows:at(1.5) end))
      .to_be("relua.ui.binding rows:at(id): the id must be an integer or a string, got float")
    expect(failure(function() return ui.binding.rows:at({}) end))
      .to_be("relua.ui.binding rows:at(id): the id must be an integer or a string, got table")
    expect(failure(function() return ui.binding.rows[1] end))
      .to_be("relua.ui.binding: a field name expected, got number (an element by its id: binding.list:at(id))")
    expect(failure(function() return ui.binding.rows(3) end))
      .to_be("relua.ui.binding is not a function: an element of a list is binding.list:at(id)")
  end)

  it("a view's text field sends the element's binding", function()
    local store = relua.Store(Form)
    expect(store:view()).to_be(table.concat({
      'Name: [Blob] (:binding.syncUp.attendees[id=1].name "…")',
      'Name: [Blob Jr] (:binding.syncUp.attendees[id=2].name "…")',
    }, "\n"))
    local tree = relua.fromJSON(store:viewJSON())
    local field = tree.rows[2].content
    expect(field.binding.action).to_be("binding.syncUp.attendees[id=2].name")
    store:send(field.binding.action, "Blob Sr")
    expect(store:view()).to_contain('Name: [Blob Sr] (:binding.syncUp.attendees[id=2].name "…")')
  end)

  it("a view bound to an element's missing field fails where it is drawn", function()
    local Bad = feature "Bad" {
      state = { rows = { { id = 1, name = "" } } },
      actions = {},
      bindable = { "rows" },
      view = function() return ui.textField("Name", ui.binding.rows:at(1)) end,
    }
    expect(function() relua.Store(Bad):view() end)
      .to_error("Bad.view: the view (textField 'Name') is bound to a field the feature cannot set: ")
  end)
end)
